"""rapidpqp.load and rapidpqp.load_mesh: OBJ, STL (binary, ASCII) and PLY (ASCII, binary) read
without trimesh, compared with the OBJ files, with files written here, and with trimesh when it
is installed."""

from __future__ import annotations

import os
import pathlib
import struct

import numpy as np
import pytest

import rapidpqp
from helpers import MESHES, load_obj

NAMES = ["teapot.obj", "gears.obj", "fandisk.obj"]


def write_binary_stl(path: pathlib.Path, v: np.ndarray, f: np.ndarray) -> None:
    tri = v[f].astype("<f4")  # (M, 3, 3)
    rec = np.zeros(len(f), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    rec["v"] = tri
    with open(path, "wb") as out:
        out.write(b"solid but binary".ljust(80, b" "))
        out.write(struct.pack("<I", len(f)))
        out.write(rec.tobytes())


def write_ascii_stl(path: pathlib.Path, v: np.ndarray, f: np.ndarray) -> None:
    lines = ["solid test"]
    for face in f:
        lines += ["facet normal 0 0 0", "outer loop"]
        lines += ["vertex " + " ".join(repr(float(c)) for c in v[i]) for i in face]
        lines += ["endloop", "endfacet"]
    lines.append("endsolid test")
    path.write_text("\n".join(lines) + "\n")


def write_ply(path: pathlib.Path, v: np.ndarray, f: np.ndarray, fmt: str) -> None:
    header = (
        f"ply\nformat {fmt} 1.0\nelement vertex {len(v)}\nproperty double x\nproperty double y\n"
        f"property double z\nelement face {len(f)}\nproperty list uchar int vertex_indices\nend_header\n"
    ).encode()
    if fmt == "ascii":
        body = "".join(f"{x!r} {y!r} {z!r}\n" for x, y, z in v.tolist())
        body += "".join(f"3 {a} {b} {c}\n" for a, b, c in f.tolist())
        data = header + body.encode()
    else:
        e = "<" if fmt == "binary_little_endian" else ">"
        faces = np.zeros(len(f), dtype=[("n", "u1"), ("i", e + "i4", 3)])
        faces["n"] = 3
        faces["i"] = f
        data = header + v.astype(e + "f8").tobytes() + faces.tobytes()
    path.write_bytes(data)


def merged(v: np.ndarray, f: np.ndarray, dtype: str) -> tuple:
    """The mesh STL describes: corners merged where bitwise identical, by first appearance."""
    corners = v[f].reshape(-1, 3).astype(dtype).astype(np.float64)
    keys = [c.tobytes() for c in corners]
    index: dict = {}
    faces = [index.setdefault(k, len(index)) for k in keys]
    verts = np.array([np.frombuffer(k, dtype=np.float64) for k in index])
    return verts, np.array(faces, dtype=np.int64).reshape(-1, 3)


@pytest.mark.parametrize("name", NAMES)
def test_obj_matches_the_file(name: str) -> None:
    v, f = load_obj(MESHES / name)
    got_v, got_f = rapidpqp.load_mesh(MESHES / name)
    assert got_v.dtype == np.float64 and got_f.dtype == np.int64
    np.testing.assert_array_equal(got_v, v)
    np.testing.assert_array_equal(got_f, f)
    m = rapidpqp.load(str(MESHES / name))
    assert m.num_triangles == len(f)
    r = rapidpqp.collide(m, None, rapidpqp.Model(v, f), None, first_contact=True)
    assert r.num_pairs == 1


@pytest.mark.parametrize("kind", ["stl_binary", "stl_ascii", "ascii", "binary_little_endian", "binary_big_endian"])
def test_written_files_read_back_exactly(tmp_path: pathlib.Path, kind: str) -> None:
    v, f = load_obj(MESHES / "teapot.obj")
    path = tmp_path / ("mesh.stl" if kind.startswith("stl") else "mesh.ply")
    if kind == "stl_binary":
        write_binary_stl(path, v, f)
        want = merged(v, f, "<f4")
    elif kind == "stl_ascii":
        write_ascii_stl(path, v, f)
        want = merged(v, f, "<f8")
    else:
        write_ply(path, v, f, kind)
        want = (v, f)
    got_v, got_f = rapidpqp.load_mesh(path)
    np.testing.assert_array_equal(got_v, want[0])
    np.testing.assert_array_equal(got_f, want[1])
    # The triangles themselves are the OBJ's (rounded to float32 in binary STL).
    tri = v[f].astype(np.float32).astype(np.float64) if kind == "stl_binary" else v[f]
    np.testing.assert_array_equal(got_v[got_f], tri)
    assert rapidpqp.load(path).num_triangles == len(f)


def test_paths_and_their_types(tmp_path: pathlib.Path) -> None:
    src = MESHES / "teapot.obj"

    class Fspath:
        def __fspath__(self) -> str:
            return str(src)

    for p in (str(src), src, Fspath()):
        assert rapidpqp.load(p).num_triangles == 6320
    for bad in (None, 3, b"meshes/teapot.obj", [str(src)]):
        with pytest.raises(TypeError, match="str or an os.PathLike"):
            rapidpqp.load(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            rapidpqp.load_mesh(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="NUL"):
        rapidpqp.load("a\0b.obj")
    # A non-ASCII file name.
    odd = tmp_path / "théière ✓.obj"
    odd.write_bytes(src.read_bytes())
    assert rapidpqp.load(odd).num_triangles == 6320


def test_errors_name_the_file_and_the_place(tmp_path: pathlib.Path) -> None:
    with pytest.raises(FileNotFoundError, match="missing.obj"):
        rapidpqp.load(tmp_path / "missing.obj")
    with pytest.raises(OSError, match="not a regular file"):
        rapidpqp.load(tmp_path)
    cases = {
        "unknown.dat": (b"OFF\n3 1 0\n", "unknown mesh format"),
        "bad.obj": (b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "line 4: vertex index 4 out of range"),
        "nan.obj": (b"v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n", "line 2: vertex 2 has a non-finite"),
        "empty.obj": (b"v 0 0 0\n", "no triangles"),
        "short.stl": (b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n", "truncated"),
        "cut.ply": (b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
                    b"property float y\nproperty float z\nend_header\n" + bytes(20),
                    "element vertex claims 3 entries, which need at least 36 bytes .* the file has 20"),
    }
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(ValueError, match=message) as e:
            rapidpqp.load(tmp_path / name)
        assert name in str(e.value)
    # A file that reads but whose model cannot be built: beyond the supported range.
    (tmp_path / "huge.obj").write_text("v 0 0 0\nv 1e302 0 0\nv 0 1 0\nf 1 2 3\n")
    v, f = rapidpqp.load_mesh(tmp_path / "huge.obj")
    assert v[1, 0] == 1e302 and f.tolist() == [[0, 1, 2]]
    with pytest.raises(ValueError, match="huge.obj"):
        rapidpqp.load(tmp_path / "huge.obj")
    # A binary STL cut short (its header starts with "solid").
    v, f = load_obj(MESHES / "teapot.obj")
    write_binary_stl(tmp_path / "cut.stl", v, f)
    data = (tmp_path / "cut.stl").read_bytes()
    (tmp_path / "cut.stl").write_bytes(data[:-10])
    with pytest.raises(ValueError, match="truncated or padded"):
        rapidpqp.load_mesh(tmp_path / "cut.stl")


def test_matches_trimesh(tmp_path: pathlib.Path) -> None:
    trimesh = pytest.importorskip("trimesh")
    v, f = load_obj(MESHES / "gears.obj")
    write_binary_stl(tmp_path / "gears.stl", v, f)
    write_ply(tmp_path / "gears.ply", v, f, "binary_little_endian")
    for path in (MESHES / "gears.obj", tmp_path / "gears.stl", tmp_path / "gears.ply"):
        t = trimesh.load(path, force="mesh", process=False)
        got_v, got_f = rapidpqp.load_mesh(path)
        # Same triangles corner for corner (trimesh's vertex numbering may differ for STL).
        np.testing.assert_array_equal(got_v[got_f], np.asarray(t.vertices)[np.asarray(t.faces)])


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_at_once(device: str) -> None:
    # Issue 25 item 5: these used to be read without bound until memory ran out.
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with pytest.raises(OSError, match="not a regular file"):
        rapidpqp.load(device)
    with pytest.raises(OSError, match="not a regular file"):
        rapidpqp.load_mesh(device)


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_byte_order_mark_and_line_endings(tmp_path: pathlib.Path, ending: bytes) -> None:
    # A BOM used to hide the first vertex, and a bare CR joined two vertex lines into one.
    text = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n"
    path = tmp_path / "marked.obj"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace(b"\n", ending))
    vertices, faces = rapidpqp.load_mesh(path)
    np.testing.assert_array_equal(vertices, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(faces, [[0, 1, 2], [0, 1, 3]])
