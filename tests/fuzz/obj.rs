//! The OBJ reader (`rapidpqp::io::parse_obj`) on generated and mutated text.
//!
//! Inputs: meshes written in the ways files write them (`i`, `i/t`, `i//n`, `i/t/n`, negative
//! relative indices, polygons, comments, other statements, tabs, CRLF, NaN and infinity
//! literals), then often corrupted: bytes changed, lines dropped, duplicated or cut, huge,
//! zero, signed and out-of-range indices, garbage words, invalid UTF-8, lines of megabytes.
//!
//! Invariants: parsing never panics; an error names a line that exists; a parsed mesh has
//! every face index within its vertices, as many vertices as `v` lines, a fan of `k − 2`
//! triangles for every face of `k` corners; a document that was not corrupted parses to
//! exactly the mesh it was written from; building a model from any parsed mesh (NaN
//! vertices included) gives a model that validates, or a clean error, never a panic.

use rapidpqp::Model;
use rapidpqp::io::parse_obj;

use crate::Target;
use crate::draw::Rng;

pub struct Obj;

/// Refused, parsed, built into a model.
static COUNT: crate::Counters<3> = crate::Counters::new();

#[derive(Clone, Debug)]
pub struct ObjInput {
    pub text: String,
    /// The mesh the text was written from, when it was not corrupted afterwards.
    pub expect: Option<(Vec<[f64; 3]>, Vec<[u32; 3]>)>,
}

fn number(rng: &mut Rng) -> (f64, String) {
    match rng.below(12) {
        0 => (f64::NAN, rng.pick(&["nan", "NaN", "-nan"]).to_string()),
        1 => {
            let (v, s) = rng.pick(&[(f64::INFINITY, "inf"), (f64::NEG_INFINITY, "-inf"), (f64::INFINITY, "infinity")]);
            (v, s.to_string())
        }
        2 => {
            let v = rng.pick(&[1e308, -1e-308, 5e-324, 0.0, -0.0, 1.7976931348623157e308]);
            (v, format!("{v:e}"))
        }
        3 => {
            let v = (rng.below(2001) as f64 - 1000.0) / 8.0;
            (v, format!("{v}"))
        }
        _ => {
            let v = rng.range(-10.0, 10.0);
            (v, format!("{v}"))
        }
    }
}

fn generate_valid(rng: &mut Rng) -> ObjInput {
    let sep = |rng: &mut Rng| rng.pick(&[" ", "  ", "\t", " \t "]).to_string();
    let eol = if rng.one_in(4) { "\r\n" } else { "\n" };
    let mut text = String::new();
    let mut verts: Vec<[f64; 3]> = Vec::new();
    let mut faces: Vec<[u32; 3]> = Vec::new();
    let lines = rng.index(40);
    for _ in 0..lines {
        match rng.below(10) {
            0 => {
                let other = [
                    "# a comment v 1 2 3",
                    "vn 0 0 1",
                    "vt 0.5 0.5",
                    "o thing",
                    "g group",
                    "s off",
                    "usemtl m",
                    "",
                    "   ",
                ];
                text += rng.pick(&other);
            }
            1..=4 => {
                let mut v = [0.0; 3];
                text += "v";
                for x in &mut v {
                    let (value, s) = number(rng);
                    *x = value;
                    text += &sep(rng);
                    text += &s;
                }
                if rng.one_in(5) {
                    text += " 1.0"; // a weight: ignored
                }
                verts.push(v);
            }
            _ if verts.is_empty() => {}
            _ => {
                let k = 3 + rng.index(3);
                let n = verts.len();
                let corners: Vec<u32> = (0..k).map(|_| rng.index(n) as u32).collect();
                text += "f";
                for &c in &corners {
                    let index = if rng.one_in(3) { -((n - c as usize) as i64) } else { c as i64 + 1 };
                    text += &sep(rng);
                    text += &match rng.below(4) {
                        0 => format!("{index}"),
                        1 => format!("{index}/{}", rng.below(9) + 1),
                        2 => format!("{index}//{}", rng.below(9) + 1),
                        _ => format!("{index}/{}/{}", rng.below(9) + 1, rng.below(9) + 1),
                    };
                }
                for j in 1..k - 1 {
                    faces.push([corners[0], corners[j], corners[j + 1]]);
                }
            }
        }
        text += eol;
    }
    ObjInput { text, expect: Some((verts, faces)) }
}

fn corrupt(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.index(4) {
        let at = rng.index(lines.len() + 1);
        match rng.below(9) {
            0 if !lines.is_empty() => {
                lines.remove(at.min(lines.len() - 1));
            }
            1 => {
                let index = rng.pick(&[
                    "0",
                    "-0",
                    "+1",
                    "99999999999999999999",
                    "9223372036854775807",
                    "-9223372036854775808",
                    "4294967296",
                    "-4294967297",
                    "2147483648",
                    "1e3",
                    "/",
                    "//1",
                    "1//",
                    "x",
                ]);
                lines.insert(at, format!("f 1 {index} 2"));
            }
            2 => lines.insert(
                at,
                rng.pick(&["f", "f 1", "f 1 2", "v", "v 1", "v 1 2", "v a b c", "f a b c", "v 1 2 3e999"]).into(),
            ),
            3 => {
                // An overlong line: a face of many corners or one enormous word.
                let big = if rng.one_in(2) {
                    let mut s = String::from("f");
                    for _ in 0..100_000 {
                        s += " 1";
                    }
                    s
                } else {
                    format!("v {} 0 0", "9".repeat(1 << 20))
                };
                lines.insert(at, big);
            }
            4 if !lines.is_empty() => {
                let l = at.min(lines.len() - 1);
                let cut = rng.index(lines[l].len() + 1);
                let cut = (0..=cut).rev().find(|&c| lines[l].is_char_boundary(c)).unwrap_or(0);
                lines[l].truncate(cut);
            }
            5 if !lines.is_empty() => {
                let l = at.min(lines.len() - 1);
                let copy = lines[l].clone();
                lines.insert(l, copy);
            }
            6 => lines.insert(at, format!("f {} {} {}", rng.int(), rng.int(), rng.int())),
            7 => {
                // Random bytes, made text as a file reader would (invalid UTF-8 replaced).
                let bytes: Vec<u8> = (0..rng.index(40)).map(|_| rng.next() as u8).collect();
                lines.insert(at, String::from_utf8_lossy(&bytes).into_owned());
            }
            _ => {
                let words = ["v", "f", "1", "-1", "/", "nan", "inf", "#", "\t", "0.5", "vt", "f1", "v1"];
                let line: Vec<&str> = (0..rng.index(8)).map(|_| rng.pick(&words)).collect();
                lines.insert(at, line.join(" "));
            }
        }
    }
    lines.join(if rng.one_in(5) { "\r\n" } else { "\n" })
}

/// The lines of OBJ text as the reader splits them: at LF, CRLF or a bare CR (a final line
/// break does not start an empty line).
fn obj_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\n', '\r']) {
            Some(k) => {
                out.push(&rest[..k]);
                let skip = if rest[k..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[k + skip..];
            }
            None => {
                out.push(rest);
                rest = "";
            }
        }
    }
    out
}

/// A statement's words: a word starting with `#` begins a comment.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split_whitespace().take_while(|w| !w.starts_with('#'))
}

impl Target for Obj {
    type Input = ObjInput;
    const NAME: &'static str = "obj_reader";
    const SHORT_CASES: u64 = 3000;

    fn generate(rng: &mut Rng) -> ObjInput {
        let valid = generate_valid(rng);
        if rng.one_in(3) { valid } else { ObjInput { text: corrupt(rng, &valid.text), expect: None } }
    }

    fn run(input: &ObjInput) {
        let text = &input.text;
        let lines = obj_lines(text);
        let line_count = lines.len();
        let mesh = match parse_obj(text) {
            Ok(mesh) => mesh,
            Err(e) => {
                assert!(input.expect.is_none(), "a valid document was refused: {e}");
                let n: usize = e
                    .strip_prefix("line ")
                    .and_then(|r| r.split(':').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("an error without its line: {e:?}"));
                assert!((1..=line_count).contains(&n), "error names line {n} of {line_count}: {e}");
                COUNT.add(0);
                return;
            }
        };
        COUNT.add(1);
        let v_lines = lines.iter().filter(|l| words(l).next() == Some("v")).count();
        assert_eq!(mesh.vertices.len(), v_lines, "one vertex per v line");
        let fan: usize = lines.iter().filter(|l| words(l).next() == Some("f")).map(|l| words(l).count() - 1 - 2).sum();
        assert_eq!(mesh.faces.len(), fan, "a fan of k - 2 triangles per face");
        assert!(mesh.faces.iter().flatten().all(|&i| (i as usize) < mesh.vertices.len()), "face index out of range");
        if let Some((verts, faces)) = &input.expect {
            let got: Vec<[u64; 3]> = mesh.vertices.iter().map(|v| [v.x, v.y, v.z].map(canonical)).collect();
            let want: Vec<[u64; 3]> = verts.iter().map(|v| v.map(canonical)).collect();
            assert_eq!(got, want, "vertices");
            assert_eq!(&mesh.faces, faces, "faces");
        }
        let triangles = mesh.triangles();
        assert_eq!(triangles.len(), mesh.faces.len());
        if !mesh.faces.is_empty() {
            match Model::from_indexed(&mesh.vertices, &mesh.faces) {
                Ok(model) => {
                    COUNT.add(2);
                    assert!(triangles.iter().flatten().all(|p| p.iter().all(|x| x.is_finite())), "NaN accepted");
                    model.validate().unwrap_or_else(|e| panic!("a model from OBJ text fails validate(): {e}"));
                }
                Err(e) => {
                    // Refused only for a NaN or infinite coordinate, or one beyond the range.
                    let finite = triangles.iter().flatten().all(|p| p.iter().all(|x| x.is_finite()));
                    let in_range = triangles.iter().flatten().all(|p| p.amax() <= rapidpqp::query::RANGE_LIMIT);
                    assert!(!finite || !in_range, "a finite mesh within the range refused: {e:?}");
                }
            }
        }
    }

    fn stats() -> String {
        format!(" ({} refused, {} parsed, {} built into a model)", COUNT.get(0), COUNT.get(1), COUNT.get(2))
    }

    fn shrink(input: &ObjInput) -> Vec<ObjInput> {
        if input.expect.is_some() {
            return Vec::new();
        }
        let lines: Vec<&str> = input.text.lines().collect();
        let mut out = Vec::new();
        for i in 0..lines.len() {
            let mut fewer = lines.clone();
            fewer.remove(i);
            out.push(ObjInput { text: fewer.join("\n"), expect: None });
        }
        out
    }
}

/// Bits of a number, all NaNs alike (the text says only "nan").
fn canonical(x: f64) -> u64 {
    if x.is_nan() { f64::NAN.to_bits() } else { x.to_bits() }
}
