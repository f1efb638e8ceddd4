"""Shared test helpers: conformance cases, random meshes and poses, brute-force geometry."""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = REPO / "tests" / "data" / "conformance"
MESHES = REPO / "meshes"


# ---------------------------------------------------------------------------------------------
# Files


def load_obj(path: Path) -> Tuple[np.ndarray, np.ndarray]:
    """`v` and `f` lines of an OBJ file: vertices (N, 3) and zero-based faces (M, 3)."""
    vertices: List[List[float]] = []
    faces: List[List[int]] = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                vertices.append([float(x) for x in parts[1:4]])
            elif parts[0] == "f":
                idx = [int(p.split("/")[0]) for p in parts[1:]]
                idx = [i - 1 if i > 0 else len(vertices) + i for i in idx]
                for k in range(1, len(idx) - 1):  # fan-split polygons
                    faces.append([idx[0], idx[k], idx[k + 1]])
    return np.array(vertices, dtype=np.float64).reshape(-1, 3), np.array(faces, dtype=np.int64).reshape(-1, 3)


def numbers(path: Path) -> List[List[float]]:
    with open(path) as f:
        return [[float(x) for x in line.split()] for line in f if line.strip()]


class Case:
    """One folder of tests/data/conformance (format in FORMAT.md)."""

    def __init__(self, name: str):
        self.name = name
        self.dir = CONFORMANCE / name
        self.va, self.fa = load_obj(self.dir / "a.obj")
        self.vb, self.fb = load_obj(self.dir / "b.obj")
        self.tris_a = self.va[self.fa]
        self.tris_b = self.vb[self.fb]
        self.poses = []  # (R1, t1, s1), (R2, t2, s2)
        for v in numbers(self.dir / "poses.txt"):
            p1 = (np.array(v[0:9]).reshape(3, 3), np.array(v[9:12]), v[12])
            p2 = (np.array(v[13:22]).reshape(3, 3), np.array(v[22:25]), v[25])
            self.poses.append((p1, p2))

    def has(self, file: str) -> bool:
        return (self.dir / file).is_file()

    def lines(self, file: str) -> List[List[float]]:
        return numbers(self.dir / file)

    def contacts(self, file: str) -> List[set]:
        """Contact files: one set of (id1, id2) pairs a pose."""
        out = []
        for v in self.lines(file):
            n = int(v[3])
            pairs = v[4 : 4 + 2 * n]
            out.append({(int(pairs[2 * k]), int(pairs[2 * k + 1])) for k in range(n)})
        return out

    def size(self) -> float:
        """Half the diagonal of the larger model's bounding box (FORMAT.md's model size)."""

        def half_diagonal(v: np.ndarray) -> float:
            return float(np.linalg.norm(v.max(axis=0) - v.min(axis=0)) / 2)

        return max(half_diagonal(self.tris_a.reshape(-1, 3)), half_diagonal(self.tris_b.reshape(-1, 3)))


_CASES: Dict[str, Case] = {}


def case(name: str) -> Case:
    if name not in _CASES:
        _CASES[name] = Case(name)
    return _CASES[name]


def place(pose: Tuple[np.ndarray, np.ndarray, float], points: np.ndarray) -> np.ndarray:
    r, t, s = pose
    return s * (points @ r.T) + t


# ---------------------------------------------------------------------------------------------
# Random data


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_pose(rng: np.random.Generator, spread: float = 1.0) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = random_rotation(rng)
    m[:3, 3] = rng.uniform(-spread, spread, size=3)
    return m


def random_soup(rng: np.random.Generator, n: int, size: float = 0.3) -> np.ndarray:
    """n random triangles (n, 3, 3) of about `size` in the unit cube."""
    centres = rng.uniform(-0.5, 0.5, size=(n, 1, 3))
    return centres + rng.normal(scale=size / 2, size=(n, 3, 3))


def sphere_mesh(n: int = 8) -> Tuple[np.ndarray, np.ndarray]:
    """A UV sphere of radius 1: vertices, faces."""
    verts = [[0.0, 0.0, 1.0]]
    for i in range(1, n):
        theta = np.pi * i / n
        for j in range(2 * n):
            phi = np.pi * j / n
            verts.append([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta)])
    verts.append([0.0, 0.0, -1.0])
    ring = lambda i, j: 1 + (i - 1) * 2 * n + (j % (2 * n))  # noqa: E731
    faces = []
    for j in range(2 * n):
        faces.append([0, ring(1, j), ring(1, j + 1)])
        faces.append([len(verts) - 1, ring(n - 1, j + 1), ring(n - 1, j)])
    for i in range(1, n - 1):
        for j in range(2 * n):
            a, b, c, d = ring(i, j), ring(i, j + 1), ring(i + 1, j), ring(i + 1, j + 1)
            faces += [[a, c, b], [b, c, d]]
    return np.array(verts), np.array(faces)


# ---------------------------------------------------------------------------------------------
# Brute-force geometry (numpy, floating point: for general-position inputs)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("...k,...k->...", a, b)


def segment_segment(p1: np.ndarray, q1: np.ndarray, p2: np.ndarray, q2: np.ndarray) -> np.ndarray:
    """Distances between segments p1q1 and p2q2 (broadcast over leading axes)."""
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    c, b = _dot(d1, r), _dot(d1, d2)
    tiny = 1e-300
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = a * e - b * b
        s = np.where(denom > tiny, np.clip((b * f - c * e) / np.where(denom > tiny, denom, 1), 0, 1), 0.0)
        t = np.where(e > tiny, (b * s + f) / np.where(e > tiny, e, 1), 0.0)
        safe_a = np.where(a > tiny, a, 1)
        s = np.where(t < 0, np.where(a > tiny, np.clip(-c / safe_a, 0, 1), 0), s)
        s = np.where(t > 1, np.where(a > tiny, np.clip((b - c) / safe_a, 0, 1), 0), s)
        t = np.clip(t, 0, 1)
    s, t = s[..., None], t[..., None]
    return np.linalg.norm((p1 + d1 * s) - (p2 + d2 * t), axis=-1)


def point_triangle(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Distances from points p (..., 3) to triangles tri (..., 3, 3), robust to zero area."""
    a, b, c = tri[..., 0, :], tri[..., 1, :], tri[..., 2, :]
    edges = np.minimum(
        np.minimum(segment_segment(p, p, a, b), segment_segment(p, p, b, c)), segment_segment(p, p, c, a)
    )
    n = np.cross(b - a, c - a)
    nn = _dot(n, n)
    inside = (
        (_dot(np.cross(b - a, p - a), n) >= 0)
        & (_dot(np.cross(c - b, p - b), n) >= 0)
        & (_dot(np.cross(a - c, p - c), n) >= 0)
        & (nn > 1e-300)
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        plane = np.abs(_dot(p - a, n)) / np.sqrt(np.where(nn > 1e-300, nn, 1))
    return np.where(inside, np.minimum(plane, edges), edges)


def point_to_soup(p: np.ndarray, tris: np.ndarray) -> float:
    return float(point_triangle(np.broadcast_to(p, (len(tris), 3)), tris).min())


def triangle_pair_gaps(t1: np.ndarray, t2: np.ndarray) -> np.ndarray:
    """Signed separating-axis gap of every pair of t1 (M1, 3, 3) × t2 (M2, 3, 3), shape
    (M1, M2): > 0 the pair is disjoint by at least that much along some axis, < 0 every axis
    overlaps by at least its magnitude (so the triangles intersect)."""
    A = t1[:, None, :, :]
    B = t2[None, :, :, :]
    ea = np.roll(A, -1, axis=2) - A  # (M1, 1, 3, 3) edges
    eb = np.roll(B, -1, axis=2) - B
    na = np.cross(ea[..., 0, :], ea[..., 1, :])
    nb = np.cross(eb[..., 0, :], eb[..., 1, :])
    axes = [na, nb]
    axes += [np.cross(ea[..., i, :], eb[..., j, :]) for i in range(3) for j in range(3)]
    axes += [np.cross(na, ea[..., i, :]) for i in range(3)]
    axes += [np.cross(nb, eb[..., j, :]) for j in range(3)]
    shape = (t1.shape[0], t2.shape[0])
    best = np.full(shape, -np.inf)
    for axis in axes:
        axis = np.broadcast_to(axis, shape + (3,))
        length = np.linalg.norm(axis, axis=-1)
        ok = length > 1e-9 * (1 + np.abs(A).max() + np.abs(B).max()) ** 2
        unit = axis / np.where(ok, length, 1)[..., None]
        pa = np.einsum("...k,...jk->...j", unit, np.broadcast_to(A, shape + (3, 3)))
        pb = np.einsum("...k,...jk->...j", unit, np.broadcast_to(B, shape + (3, 3)))
        gap = np.maximum(pb.min(-1) - pa.max(-1), pa.min(-1) - pb.max(-1))
        best = np.where(ok, np.maximum(best, gap), best)
    return best


def triangle_distances(t1: np.ndarray, t2: np.ndarray) -> np.ndarray:
    """Distance between every pair of t1 (M1, 3, 3) × t2 (M2, 3, 3) of disjoint triangles
    (vertex–face and edge–edge minima); for intersecting pairs use triangle_pair_gaps."""
    A = t1[:, None, :, :]
    B = t2[None, :, :, :]
    shape = (t1.shape[0], t2.shape[0])
    A = np.broadcast_to(A, shape + (3, 3))
    B = np.broadcast_to(B, shape + (3, 3))
    best = np.full(shape, np.inf)
    for k in range(3):
        best = np.minimum(best, point_triangle(A[..., k, :], B))
        best = np.minimum(best, point_triangle(B[..., k, :], A))
        for j in range(3):
            d = segment_segment(A[..., k, :], A[..., (k + 1) % 3, :], B[..., j, :], B[..., (j + 1) % 3, :])
            best = np.minimum(best, d)
    return best
