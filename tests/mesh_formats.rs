//! The mesh readers (`rapidpqp::io::{load, read_mesh}`): every bundled mesh written as STL
//! (ASCII, binary) and PLY (ASCII, binary little and big endian, in several layouts) reads back
//! exactly as the OBJ; each format's features; every error kind with its place; truncated,
//! mutated and random input gives an error (where the format can tell) and never a panic.

use std::path::{Path, PathBuf};

use rapidpqp::io::{Format, LoadErrorKind, Mesh, load, load_obj, read_mesh};
use rapidpqp::{Triangle, Vec3};

fn meshes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes")
}

fn bundled() -> Vec<PathBuf> {
    let mut names: Vec<_> = std::fs::read_dir(meshes_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "meshes/ should hold the bundled meshes");
    names
}

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mesh_formats");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// ------------------------------------------------------------------------------------------
// Writers (the test's own, independent of the readers)

fn ascii_stl(mesh: &Mesh, name: &str) -> Vec<u8> {
    let mut s = format!("solid {name}\n");
    for f in &mesh.faces {
        s += "  facet normal 0 0 1\n    outer loop\n";
        for &i in f {
            let v = mesh.vertices[i as usize];
            s += &format!("      vertex {:?} {:?} {:?}\n", v.x, v.y, v.z);
        }
        s += "    endloop\n  endfacet\n";
    }
    s += &format!("endsolid {name}\n");
    s.into_bytes()
}

fn binary_stl(mesh: &Mesh, header: &[u8]) -> Vec<u8> {
    let mut out = vec![b' '; 80];
    out[..header.len()].copy_from_slice(header);
    out.extend_from_slice(&(mesh.faces.len() as u32).to_le_bytes());
    for (k, f) in mesh.faces.iter().enumerate() {
        for n in [0.0f32, 0.0, 1.0] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for &i in f {
            let v = mesh.vertices[i as usize];
            for c in [v.x, v.y, v.z] {
                out.extend_from_slice(&(c as f32).to_le_bytes());
            }
        }
        out.extend_from_slice(&(k as u16).to_le_bytes());
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Encoding {
    Ascii,
    Little,
    Big,
}

/// A PLY layout: how the writer arranges the file.
#[derive(Clone, Copy, Debug)]
struct Layout {
    encoding: Encoding,
    /// Coordinates as `double` (else `float`).
    double: bool,
    /// Vertex properties `nx y red x z` (else `x y z`).
    shuffled: bool,
    /// Face list count type `int` and index type `uint` (else `uchar`, `int`), name
    /// `vertex_index` (else `vertex_indices`), with extra face properties around it.
    int_counts: bool,
    /// An extra element before the vertices, and the faces before the vertices.
    faces_first: bool,
}

fn put(out: &mut Vec<u8>, e: Encoding, ty: &str, value: f64) {
    match e {
        Encoding::Ascii => {
            // Decimals that read back as the exact double (the reader reads text as f64).
            let text = match ty {
                "float" | "double" => format!("{value:?} "),
                _ => format!("{} ", value as i64),
            };
            out.extend_from_slice(text.as_bytes());
        }
        Encoding::Little | Encoding::Big => {
            let mut b: Vec<u8> = match ty {
                "uchar" => vec![value as u8],
                "int" => (value as i32).to_le_bytes().to_vec(),
                "uint" => (value as u32).to_le_bytes().to_vec(),
                "float" => (value as f32).to_le_bytes().to_vec(),
                "double" => value.to_le_bytes().to_vec(),
                "short" => (value as i16).to_le_bytes().to_vec(),
                _ => unreachable!("{ty}"),
            };
            if e == Encoding::Big {
                b.reverse();
            }
            out.extend_from_slice(&b);
        }
    }
}

fn end_record(out: &mut Vec<u8>, e: Encoding) {
    if e == Encoding::Ascii {
        out.pop();
        out.push(b'\n');
    }
}

fn ply(mesh: &Mesh, l: Layout) -> Vec<u8> {
    let coord = if l.double { "double" } else { "float" };
    let (count_ty, index_ty, list_name) =
        if l.int_counts { ("int", "uint", "vertex_index") } else { ("uchar", "int", "vertex_indices") };
    let format = match l.encoding {
        Encoding::Ascii => "ascii",
        Encoding::Little => "binary_little_endian",
        Encoding::Big => "binary_big_endian",
    };
    let mut h = format!("ply\nformat {format} 1.0\ncomment written by tests/mesh_formats.rs\n");
    let extra = "element material 2\nproperty uchar red\nproperty list uchar float weights\n";
    let vertex_props = if l.shuffled {
        format!("property {coord} nx\nproperty {coord} y\nproperty uchar red\nproperty {coord} x\nproperty {coord} z\n")
    } else {
        format!("property {coord} x\nproperty {coord} y\nproperty {coord} z\n")
    };
    let vertex = format!("element vertex {}\n{vertex_props}", mesh.vertices.len());
    let face_props = if l.int_counts {
        format!(
            "property short flags\nproperty list {count_ty} {index_ty} {list_name}\nproperty list uchar float texcoord\n"
        )
    } else {
        format!("property list {count_ty} {index_ty} {list_name}\n")
    };
    let face = format!("element face {}\n{face_props}", mesh.faces.len());
    if l.faces_first {
        h += extra;
        h += &face;
        h += &vertex;
    } else {
        h += &vertex;
        h += &face;
    }
    h += "obj_info nothing\nend_header\n";
    let mut out = h.into_bytes();
    let e = l.encoding;
    let write_vertices = |out: &mut Vec<u8>| {
        for v in &mesh.vertices {
            if l.shuffled {
                put(out, e, coord, 0.5);
                put(out, e, coord, v.y);
                put(out, e, "uchar", 200.0);
                put(out, e, coord, v.x);
                put(out, e, coord, v.z);
            } else {
                for c in [v.x, v.y, v.z] {
                    put(out, e, coord, c);
                }
            }
            end_record(out, e);
        }
    };
    let write_faces = |out: &mut Vec<u8>| {
        for (k, f) in mesh.faces.iter().enumerate() {
            if l.int_counts {
                put(out, e, "short", (k % 7) as f64);
            }
            put(out, e, count_ty, 3.0);
            for &i in f {
                put(out, e, index_ty, f64::from(i));
            }
            if l.int_counts {
                let n = k % 3;
                put(out, e, "uchar", n as f64);
                for j in 0..n {
                    put(out, e, "float", j as f64 / 4.0);
                }
            }
            end_record(out, e);
        }
    };
    if l.faces_first {
        for m in 0..2 {
            put(&mut out, e, "uchar", m as f64);
            put(&mut out, e, "uchar", 2.0);
            put(&mut out, e, "float", 0.25);
            put(&mut out, e, "float", 0.75);
            end_record(&mut out, e);
        }
        write_faces(&mut out);
        write_vertices(&mut out);
    } else {
        write_vertices(&mut out);
        write_faces(&mut out);
    }
    out
}

fn layouts() -> Vec<Layout> {
    let mut all = Vec::new();
    for encoding in [Encoding::Ascii, Encoding::Little, Encoding::Big] {
        for (double, shuffled, int_counts, faces_first) in [
            (false, false, false, false),
            (true, true, true, true),
            (true, false, false, true),
            (false, true, true, false),
        ] {
            all.push(Layout { encoding, double, shuffled, int_counts, faces_first });
        }
    }
    all
}

// ------------------------------------------------------------------------------------------
// Comparisons

fn bits(v: &Vec3) -> [u64; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

fn as_f32(v: &Vec3) -> Vec3 {
    Vec3::new(f64::from(v.x as f32), f64::from(v.y as f32), f64::from(v.z as f32))
}

fn same_triangles(got: &[Triangle], want: &[Triangle], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: triangle count");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.map(|c| bits(&c)), w.map(|c| bits(&c)), "{what}: triangle {k}");
    }
}

fn same_mesh(got: &Mesh, want: &Mesh, what: &str) {
    assert_eq!(got.vertices.len(), want.vertices.len(), "{what}: vertex count");
    for (k, (g, w)) in got.vertices.iter().zip(&want.vertices).enumerate() {
        assert_eq!(bits(g), bits(w), "{what}: vertex {k}");
    }
    assert_eq!(got.faces, want.faces, "{what}: faces");
}

/// The mesh STL describes: corners merged where bitwise identical, in order of first use.
fn stl_merged(mesh: &Mesh, round: fn(&Vec3) -> Vec3) -> Mesh {
    let mut index = std::collections::HashMap::new();
    let mut out = Mesh::default();
    for f in &mesh.faces {
        let face = f.map(|i| {
            let v = round(&mesh.vertices[i as usize]);
            *index.entry(bits(&v)).or_insert_with(|| {
                out.vertices.push(v);
                out.vertices.len() as u32 - 1
            })
        });
        out.faces.push(face);
    }
    out
}

// ------------------------------------------------------------------------------------------
// Round trips

#[test]
fn bundled_meshes_round_trip_through_every_format() {
    for path in bundled() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let obj = load_obj(&path).unwrap();
        // The checked reader agrees with the raw one on the bundled files.
        same_mesh(&load(&path).unwrap(), &obj, &format!("{name} via load"));
        let triangles = obj.triangles();

        let ascii = read_mesh(&ascii_stl(&obj, &name), Format::Stl).unwrap();
        same_triangles(&ascii.triangles(), &triangles, &format!("{name} ASCII STL"));
        same_mesh(&ascii, &stl_merged(&obj, |v| *v), &format!("{name} ASCII STL merge"));

        // A binary header starting with "solid" (as some exporters write) is still binary.
        let binary = read_mesh(&binary_stl(&obj, b"solid exported by a CAD tool"), Format::Stl).unwrap();
        let rounded: Vec<Triangle> = triangles.iter().map(|t| t.map(|c| as_f32(&c))).collect();
        same_triangles(&binary.triangles(), &rounded, &format!("{name} binary STL"));
        same_mesh(&binary, &stl_merged(&obj, as_f32), &format!("{name} binary STL merge"));

        for layout in layouts() {
            let what = format!("{name} PLY {layout:?}");
            let got = read_mesh(&ply(&obj, layout), Format::Ply).unwrap_or_else(|e| panic!("{what}: {e}"));
            let mut want = obj.clone();
            if !layout.double && layout.encoding != Encoding::Ascii {
                want.vertices.iter_mut().for_each(|v| *v = as_f32(v));
            }
            same_mesh(&got, &want, &what);
        }
    }
}

/// gears and adis16480 were converted from binary STL by the rule meshes/README.md states
/// (float32 widened, corners merged where bitwise identical, numbered by first appearance):
/// written back as binary STL they read back as the very same vertices and faces.
#[test]
fn stl_sourced_meshes_read_back_identically() {
    for name in ["gears.obj", "adis16480.obj"] {
        let obj = load_obj(meshes_dir().join(name)).unwrap();
        let path = scratch().join(name.replace(".obj", ".STL"));
        std::fs::write(&path, binary_stl(&obj, b"binary")).unwrap();
        same_mesh(&load(&path).unwrap(), &obj, name);
    }
}

#[test]
fn files_are_read_by_extension_or_else_by_content() {
    let obj = load_obj(meshes_dir().join("teapot.obj")).unwrap();
    let dir = scratch();
    let variants: Vec<(&str, Vec<u8>)> = vec![
        ("a.stl", ascii_stl(&obj, "teapot")),
        ("b.StL", binary_stl(&obj, b"")),
        ("c.PLY", ply(&obj, layouts()[5])),
        ("d.mesh", ply(&obj, layouts()[0])),
        ("e", binary_stl(&obj, b"")),
        ("f.txt", ascii_stl(&obj, "")),
        ("g.data", std::fs::read(meshes_dir().join("teapot.obj")).unwrap()),
    ];
    for (file, bytes) in variants {
        let path = dir.join(file);
        std::fs::write(&path, &bytes).unwrap();
        let mesh = load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(mesh.faces.len(), obj.faces.len(), "{file}");
    }
}

// ------------------------------------------------------------------------------------------
// Format features

fn obj(text: &str) -> Result<Mesh, rapidpqp::io::LoadError> {
    read_mesh(text.as_bytes(), Format::Obj)
}

#[test]
fn obj_features() {
    // Quads and n-gons become fans; negative indices count back; `v` takes its first three
    // numbers (a weight or colours are ignored); `vt`, `vn`, `f a/b/c` entries; comments.
    let m = obj("# c\nv 0 0 0 1\nv 1 0 0 0.5 0.5 0.5\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\
                 f 1/1/1 2/1/1 3/1/1 4/1/1\nf -1 -2 -3\ng x\nusemtl m\nf 1//1 2//1 3//1 4//1 1//1\r\n")
    .unwrap();
    assert_eq!(m.vertices.len(), 4);
    assert_eq!(m.vertices[1], Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(m.faces, vec![[0, 1, 2], [0, 2, 3], [3, 2, 1], [0, 1, 2], [0, 2, 3], [0, 3, 0]]);
    // Invalid UTF-8 in a comment or a name does no harm.
    let mut bytes = b"# \xff\xfe\nv 0 0 0\nv 1 0 0\nv 0 1 0\no \xc3\x28\nf 1 2 3\n".to_vec();
    assert_eq!(read_mesh(&bytes, Format::Obj).unwrap().faces.len(), 1);
    bytes.extend_from_slice(b"f 1 2 4\n");
    let e = read_mesh(&bytes, Format::Obj).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Malformed);
    assert!(e.message.contains("line 7") && e.message.contains("out of range"), "{e}");
}

#[test]
fn stl_and_ply_polygons_become_fans() {
    let stl = "solid q\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\n\
               endloop\nendfacet\nendsolid q\nSOLID two\n FACET NORMAL 0 0 1\n OUTER LOOP\n VERTEX 0 0 0\n\
               VERTEX 1 0 0\n VERTEX 0 0 1\n ENDLOOP\n ENDFACET\nENDSOLID\n";
    let m = read_mesh(stl.as_bytes(), Format::Stl).unwrap();
    assert_eq!(m.faces, vec![[0, 1, 2], [0, 2, 3], [0, 1, 4]]);
    let ply = "ply\r\nformat ascii 1.0\r\nelement vertex 5\r\nproperty double x\r\nproperty double y\r\n\
               property double z\r\nelement face 2\r\nproperty list uchar int vertex_indices\r\nend_header\r\n\
               0 0 0\r\n1 0 0\r\n1 1 0\r\n0 1 0\r\n2 2 2\r\n4 0 1 2 3\r\n5 4 3 2 1 0\r\n";
    let m = read_mesh(ply.as_bytes(), Format::Ply).unwrap();
    assert_eq!(m.faces, vec![[0, 1, 2], [0, 2, 3], [4, 3, 2], [4, 2, 1], [4, 1, 0]]);
}

// ------------------------------------------------------------------------------------------
// Errors

fn error(bytes: &[u8], format: Format) -> rapidpqp::io::LoadError {
    match read_mesh(bytes, format) {
        Ok(m) => {
            panic!("accepted ({} faces): {:?}", m.faces.len(), String::from_utf8_lossy(&bytes[..bytes.len().min(200)]))
        }
        Err(e) => e,
    }
}

fn small_mesh() -> Mesh {
    let full = load_obj(meshes_dir().join("bunny_15k.obj")).unwrap();
    let mut mesh = Mesh { vertices: Vec::new(), faces: Vec::new() };
    let mut renumber = std::collections::HashMap::new();
    for f in &full.faces[..40] {
        let face = f.map(|i| {
            *renumber.entry(i).or_insert_with(|| {
                mesh.vertices.push(full.vertices[i as usize]);
                mesh.vertices.len() as u32 - 1
            })
        });
        mesh.faces.push(face);
    }
    mesh
}

#[test]
fn load_errors_name_the_file_the_place_and_the_kind() {
    let dir = scratch();
    let e = load(dir.join("missing.obj")).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::NotFound);
    assert!(e.to_string().contains("missing.obj"), "{e}");
    let e = load(&dir).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Io, "{e}");
    let junk = dir.join("notes.txt");
    std::fs::write(&junk, "hello, this is not a mesh\n").unwrap();
    let e = load(&junk).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::UnknownFormat, "{e}");
    assert!(e.to_string().starts_with(&junk.display().to_string()), "{e}");
    // A known extension with another format's content says what the content looks like.
    let wrong = dir.join("wrong.stl");
    std::fs::write(&wrong, ply(&small_mesh(), layouts()[0])).unwrap();
    let e = load(&wrong).unwrap_err();
    assert!(e.message.contains("looks like PLY"), "{e}");

    // NaN and infinite coordinates, in each format, with their place.
    let e = error(b"v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n", Format::Obj);
    assert_eq!(e.kind, LoadErrorKind::NonFinite);
    assert!(e.message.contains("line 2"), "{e}");
    let e = error(b"v 0 0 0\nv 1 1e999 0\nv 0 1 0\nf 1 2 3\n", Format::Obj);
    assert_eq!(e.kind, LoadErrorKind::NonFinite);
    let mut m = small_mesh();
    m.vertices[m.faces[3][1] as usize].y = f64::INFINITY;
    let e = error(&binary_stl(&m, b""), Format::Stl);
    assert_eq!(e.kind, LoadErrorKind::NonFinite);
    assert!(e.message.contains("byte ") && e.message.contains("facet 4"), "{e}");
    let e = error(&ascii_stl(&m, "x"), Format::Stl);
    assert_eq!(e.kind, LoadErrorKind::NonFinite, "{e}");
    for layout in layouts() {
        let e = error(&ply(&m, layout), Format::Ply);
        assert_eq!(e.kind, LoadErrorKind::NonFinite, "{layout:?}: {e}");
        let place = if layout.encoding == Encoding::Ascii { "line " } else { "byte " };
        assert!(e.message.contains(place), "{layout:?}: {e}");
    }

    // Indices out of range.
    let mut m = small_mesh();
    m.faces[7][2] = m.vertices.len() as u32;
    for layout in layouts() {
        let e = error(&ply(&m, layout), Format::Ply);
        assert_eq!(e.kind, LoadErrorKind::Malformed, "{layout:?}: {e}");
        assert!(e.message.contains("out of range") && e.message.contains("face 8"), "{layout:?}: {e}");
    }
    for text in ["v 0 0 0\nf 1 2 3\n", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 1 2\n"]
    {
        assert!(error(text.as_bytes(), Format::Obj).message.contains("out of range"));
    }

    // Empty meshes.
    for (bytes, format) in [
        (b"v 0 0 0\nv 1 0 0\n".to_vec(), Format::Obj),
        (b"# nothing\n".to_vec(), Format::Obj),
        (binary_stl(&Mesh::default(), b""), Format::Stl),
        (b"solid empty\nendsolid empty\n".to_vec(), Format::Stl),
        (ply(&Mesh { vertices: small_mesh().vertices, faces: vec![] }, layouts()[4]), Format::Ply),
        (b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n"
            .to_vec(), Format::Ply),
    ] {
        assert_eq!(error(&bytes, format).kind, LoadErrorKind::Empty, "{format:?}");
    }

    // Header errors name their line.
    let bad_headers = [
        "ply\nformat ascii 2.0\nend_header\n",
        "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\nend_header\n",
        "ply\nformat ascii 1.0\nproperty float x\nend_header\n",
        "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n0 0\n",
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar float vertex_indices\nend_header\n",
        "ply\nformat ascii 1.0\nelement vertex 1\n",
        "ply\nelement vertex 1\nend_header\n",
    ];
    for text in bad_headers {
        assert_eq!(error(text.as_bytes(), Format::Ply).kind, LoadErrorKind::Malformed, "{text}");
    }
    // An element without properties holds no data, whatever its count says (and is not a
    // loop of 2^60 turns).
    let ply_text = "ply\nformat binary_little_endian 1.0\nelement nothing 1152921504606846976\nelement vertex 3\n\
                    property float x\nproperty float y\nproperty float z\nelement face 1\n\
                    property list uchar uint vertex_indices\nend_header\n";
    let mut bytes = ply_text.as_bytes().to_vec();
    for c in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0] {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    bytes.push(3);
    for i in [0u32, 1, 2] {
        bytes.extend_from_slice(&i.to_le_bytes());
    }
    assert_eq!(read_mesh(&bytes, Format::Ply).unwrap().faces, vec![[0, 1, 2]]);
    bytes.push(0);
    assert!(error(&bytes, Format::Ply).message.contains("1 bytes after the last element"));
    // A binary STL whose size does not match its count.
    let mut b = binary_stl(&small_mesh(), b"");
    b.push(0);
    let e = error(&b, Format::Stl);
    assert!(e.message.contains("40 facets") && e.message.contains("2084"), "{e}");
}

// ------------------------------------------------------------------------------------------
// Truncation and garbage

/// Where a cut can go unnoticed because the format cannot tell: inside the trailing free text
/// of ASCII STL (`endsolid name`), or inside the last number of ASCII PLY.
fn undetectable_from(bytes: &[u8], format: Format, ascii: bool) -> usize {
    let text = String::from_utf8_lossy(bytes);
    match (format, ascii) {
        (Format::Stl, true) => text.rfind("endsolid").unwrap() + "endsolid".len(),
        (Format::Ply, true) => text.trim_end().rfind(char::is_whitespace).unwrap() + 2,
        _ => bytes.len(),
    }
}

#[test]
fn every_truncation_is_an_error() {
    let mesh = small_mesh();
    let mut files: Vec<(String, Vec<u8>, Format, bool)> = vec![
        ("ASCII STL".into(), ascii_stl(&mesh, "bunny part"), Format::Stl, true),
        ("binary STL".into(), binary_stl(&mesh, b"solid"), Format::Stl, false),
    ];
    for layout in layouts() {
        files.push((format!("PLY {layout:?}"), ply(&mesh, layout), Format::Ply, layout.encoding == Encoding::Ascii));
    }
    for (what, bytes, format, ascii) in files {
        let whole = read_mesh(&bytes, format).unwrap();
        let from = undetectable_from(&bytes, format, ascii);
        for cut in 0..bytes.len() {
            match read_mesh(&bytes[..cut], format) {
                Err(e) => assert!(!e.message.is_empty()),
                Ok(m) => {
                    assert!(cut >= from, "{what}: cut at {cut} of {} was accepted", bytes.len());
                    assert_eq!(m.faces, whole.faces, "{what}: cut at {cut}");
                }
            }
        }
    }
    // OBJ has no counts: a cut at a line end is a valid smaller mesh. Never a panic.
    let text = std::fs::read(meshes_dir().join("teapot.obj")).unwrap();
    for cut in (0..text.len()).step_by(97) {
        let _ = read_mesh(&text[..cut], Format::Obj);
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_and_random_bytes_never_panic() {
    let mesh = small_mesh();
    let mut seeds: Vec<(Vec<u8>, Format)> = vec![
        (ascii_stl(&mesh, "m"), Format::Stl),
        (binary_stl(&mesh, b""), Format::Stl),
        (std::fs::read(meshes_dir().join("teapot.obj")).unwrap()[..4000].to_vec(), Format::Obj),
    ];
    for layout in layouts() {
        seeds.push((ply(&mesh, layout), Format::Ply));
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    for round in 0..6000 {
        let (seed, format) = &seeds[round % seeds.len()];
        let mut bytes = seed.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len());
            match rng.below(5) {
                0 => bytes[at] = rng.next() as u8,
                1 => bytes[at] ^= 1 << rng.below(8),
                2 => {
                    bytes.remove(at);
                }
                3 => bytes.insert(at, b"0123456789 -.e\n\xff"[rng.below(16)]),
                _ => {
                    // A count or index made huge.
                    let word = (rng.next() as u32 | 0x8000_0000).to_le_bytes();
                    let end = (at + 4).min(bytes.len());
                    bytes[at..end].copy_from_slice(&word[..end - at]);
                }
            }
        }
        if let Ok(m) = read_mesh(&bytes, *format) {
            accepted += 1;
            assert!(!m.faces.is_empty());
            assert!(m.faces.iter().flatten().all(|&i| (i as usize) < m.vertices.len()));
            assert!(m.vertices.iter().all(|v| v.iter().all(|c| c.is_finite())));
        }
        let _ = Format::detect(&bytes);
    }
    // Purely random bytes, with and without a format's magic in front.
    for round in 0..3000 {
        let n = rng.below(600);
        let mut bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        let prefix: &[u8] = [&b""[..], b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar uint vertex_indices\nend_header\n", b"solid x\n", b"v 1 2 3\n"][round % 4];
        bytes.splice(0..0, prefix.iter().copied());
        for format in [Format::Obj, Format::Stl, Format::Ply] {
            let _ = read_mesh(&bytes, format);
        }
        let _ = Format::detect(&bytes);
    }
    assert!(accepted > 100, "only {accepted} mutated files parsed: the mutations are too harsh to test much");
}

// ------------------------------------------------------------------------------------------
// Issue 25 item 5 and its smaller items: byte-order marks, line endings, what is not a file,
// counts beyond the data, and values that are not of their declared type.

/// `text` with its line breaks as `ending` (LF in the source), and a UTF-8 byte-order mark
/// first when `bom`.
fn with_endings(text: &[u8], ending: &[u8], bom: bool) -> Vec<u8> {
    let mut out = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
    for &b in text {
        if b == b'\n' { out.extend_from_slice(ending) } else { out.push(b) }
    }
    out
}

/// Every text format, read with a byte-order mark and with LF, CRLF and bare CR line breaks,
/// gives the same mesh (the BOM used to hide the first `v` statement, and a bare CR joined two
/// `v` lines into one whose second vertex was dropped: every face index then named the wrong
/// vertex).
#[test]
fn byte_order_marks_and_every_line_ending_read_the_same_mesh() {
    let mesh = small_mesh();
    // (The mark right before the first `v`: the case that lost a vertex.)
    let mut obj_text = String::new();
    for v in &mesh.vertices {
        obj_text += &format!("v {:?} {:?} {:?}\n", v.x, v.y, v.z);
    }
    for f in &mesh.faces {
        obj_text += &format!("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1);
    }
    let ascii_ply = ply(
        &mesh,
        Layout { encoding: Encoding::Ascii, double: true, shuffled: true, int_counts: false, faces_first: true },
    );
    let binary_ply = ply(
        &mesh,
        Layout { encoding: Encoding::Little, double: true, shuffled: false, int_counts: true, faces_first: false },
    );
    let stl = ascii_stl(&mesh, "part");
    let stl_mesh = stl_merged(&mesh, |v| *v);
    let cases: [(&[u8], Format, &Mesh, bool); 4] = [
        (obj_text.as_bytes(), Format::Obj, &mesh, true),
        (&ascii_ply, Format::Ply, &mesh, true),
        (&stl, Format::Stl, &stl_mesh, true),
        (&binary_ply, Format::Ply, &mesh, false),
    ];
    for (text, format, want, whole) in cases {
        for ending in [&b"\n"[..], b"\r\n", b"\r"] {
            for bom in [false, true] {
                let bytes = if whole {
                    with_endings(text, ending, bom)
                } else {
                    // Binary PLY: only the header is text.
                    let end = text.windows(11).position(|w| w == b"end_header\n").unwrap() + 11;
                    let mut b = with_endings(&text[..end], ending, bom);
                    b.extend_from_slice(&text[end..]);
                    b
                };
                let what = format!("{} ending {ending:?} bom {bom}", format.name());
                let got = read_mesh(&bytes, format).unwrap_or_else(|e| panic!("{what}: {e}"));
                same_mesh(&got, want, &what);
                assert_eq!(Format::detect(&bytes), Some(format), "{what}");
                if format == Format::Obj {
                    let raw = rapidpqp::io::parse_obj(std::str::from_utf8(&bytes).unwrap()).unwrap();
                    same_mesh(&raw, want, &what);
                }
            }
        }
    }
    // Line numbers count every kind of line break (the error is on line 4).
    for ending in [&b"\n"[..], b"\r\n", b"\r"] {
        let bad = with_endings(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", ending, true);
        let e = error(&bad, Format::Obj);
        assert!(e.message.contains("line 4:"), "{ending:?}: {e}");
        let bad = with_endings(b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 q 0\n", ending, true);
        let e = error(&bad, Format::Stl);
        assert!(e.message.contains("line 5:"), "{ending:?}: {e}");
    }
}

/// What is not a regular file is refused at once, before anything is read: devices that never
/// end (`/dev/zero`, `/dev/urandom`, which used to be read until memory ran out), a directory,
/// a FIFO (whose opening would wait for a writer).
#[test]
fn only_regular_files_are_read() {
    let dir = scratch();
    let fifo = dir.join("pipe.obj");
    let _ = std::fs::remove_file(&fifo);
    let made_fifo = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    let mut paths = vec![dir.clone()];
    for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
        if Path::new(device).exists() {
            paths.push(PathBuf::from(device));
        }
    }
    if made_fifo {
        paths.push(fifo.clone());
    }
    assert!(paths.len() >= 3, "the devices to test with: {paths:?}");
    for path in &paths {
        let e = load(path).unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Io, "{}: {e}", path.display());
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert!(load_obj(path).unwrap_err().contains("not a regular file"));
    }
    // A link to a regular file is read.
    let target = dir.join("linked_target.obj");
    std::fs::write(&target, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let link = dir.join("link.obj");
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(load(&link).unwrap().faces.len(), 1);
    }
    let _ = std::fs::remove_file(&fifo);
}

/// A PLY header that claims more elements than the data can hold is refused before any memory
/// is reserved for them, with the counts in the message.
#[test]
fn ply_counts_beyond_the_data_are_refused_at_once() {
    let head = |format: &str, vertices: u64, faces: u64| {
        format!(
            "ply\nformat {format} 1.0\nelement vertex {vertices}\nproperty float x\nproperty float y\n\
             property float z\nelement face {faces}\nproperty list uchar int vertex_indices\nend_header\n"
        )
    };
    for (format, body) in [("ascii", &b"0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"[..]), ("binary_little_endian", &[0u8; 49][..])]
    {
        for (vertices, faces) in [(4_000_000_000u64, 1u64), (3, 1u64 << 40), (u64::MAX / 2, u64::MAX / 2)] {
            let mut bytes = head(format, vertices, faces).into_bytes();
            bytes.extend_from_slice(body);
            let e = error(&bytes, Format::Ply);
            assert_eq!(e.kind, LoadErrorKind::Malformed, "{e}");
            let clear = e.message.contains("claims") && e.message.contains("bytes") || e.message.contains("2^32 - 1");
            assert!(clear, "{format} {vertices} {faces}: {e}");
        }
        // The honest counts read.
        let mut bytes = head(format, 3, 1).into_bytes();
        if format == "ascii" {
            bytes.extend_from_slice(body);
        } else {
            for v in [[0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
                v.iter().for_each(|c| bytes.extend_from_slice(&c.to_le_bytes()));
            }
            bytes.push(3);
            [0i32, 1, 2].iter().for_each(|i| bytes.extend_from_slice(&i.to_le_bytes()));
        }
        assert_eq!(read_mesh(&bytes, Format::Ply).unwrap().faces, vec![[0, 1, 2]], "{format}");
    }
}

/// OBJ: after a vertex's three coordinates only a weight or a colour (numbers) may come; a
/// comment may end any statement.
#[test]
fn obj_vertices_with_trailing_words_are_refused() {
    let faces = "v 0 0 1\nv 1 0 0\nf 1 2 3\n";
    for bad in ["v 0 0 0 abc\n", "v 0 0 0 1 abc\n", "v 0 0 0 1 2 3 4 5\n", "v 0 0 0 0x1\n"] {
        let e = error(format!("{bad}{faces}").as_bytes(), Format::Obj);
        assert_eq!(e.kind, LoadErrorKind::Malformed, "{bad:?}");
        assert!(e.message.contains("line 1: bad vertex"), "{bad:?}: {e}");
        assert!(rapidpqp::io::parse_obj(&format!("{bad}{faces}")).is_err(), "the raw reader too: {bad:?}");
    }
    for good in ["v 0 0 0\n", "v 0 0 0 1\n", "v 0 0 0 0.5 0.5 0.5\n", "v 0 0 0 0.5 0.5 0.5 1\n", "v 0 0 0 # origin\n"] {
        let m = read_mesh(format!("{good}{faces}f 1 2 3 # a face\n").as_bytes(), Format::Obj)
            .unwrap_or_else(|e| panic!("{good:?}: {e}"));
        assert_eq!((m.vertices[0], m.faces.len()), (Vec3::zeros(), 2), "{good:?}");
    }
}

/// PLY: one rule for values and names. A second property (or element) of the same name is
/// refused (the reader used to keep the last `x`); an ASCII value must be of its declared
/// type: an integer within the type's range (300 for a `uchar` used to be accepted, 0.5
/// refused), a `float` within `f32`'s range.
#[test]
fn ply_values_and_names_follow_one_rule() {
    let ply = |props: &str, vertex: &str, extra: &str| {
        format!(
            "ply\nformat ascii 1.0\n{extra}element vertex 3\n{props}element face 1\n\
             property list uchar int vertex_indices\nend_header\n{vertex}\n1 0 0 0\n0 1 0 0\n3 0 1 2\n"
        )
    };
    let xyz = "property float x\nproperty float y\nproperty float z\n";
    let with = |ty: &str| format!("{xyz}property {ty} w\n");
    // Duplicates.
    let e = error(ply(&format!("{xyz}property double x\n"), "0 0 0 0", "").as_bytes(), Format::Ply);
    assert!(e.message.contains("second property") && e.message.contains("line 7"), "{e}");
    let e = error(ply(xyz, "0 0 0 0", "element vertex 0\nproperty float x\n").as_bytes(), Format::Ply);
    assert!(e.message.contains("second element"), "{e}");
    // Out of the declared type's range, and not of the type: both refused, with the type.
    for (ty, value, ok) in [
        ("uchar", "255", true),
        ("uchar", "300", false),
        ("uchar", "-1", false),
        ("uchar", "0.5", false),
        ("char", "-128", true),
        ("char", "-129", false),
        ("short", "40000", false),
        ("ushort", "65535", true),
        ("int", "2147483648", false),
        ("uint", "4294967295", true),
        ("uint", "4294967296", false),
        ("float", "3.4e38", true),
        ("float", "1e300", false),
        ("double", "1e300", true),
    ] {
        let bytes = ply(&with(ty), &format!("0 0 0 {value}"), "");
        match read_mesh(bytes.as_bytes(), Format::Ply) {
            Ok(_) => assert!(ok, "{ty} {value} accepted"),
            Err(e) => {
                assert!(!ok, "{ty} {value}: {e}");
                assert!(e.message.contains(ty) && e.message.contains("line 11"), "{ty} {value}: {e}");
            }
        }
    }
    // A coordinate's type too, and a vertex index's.
    let e = error(ply("property uchar x\nproperty float y\nproperty float z\n", "256 0 0", "").as_bytes(), Format::Ply);
    assert!(e.message.contains("out of range for uchar"), "{e}");
}
