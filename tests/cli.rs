//! The `rapidpqp` command-line tool, run as a program: answers equal the Rust API's (the JSON
//! output parsed back with the small parser below, numbers compared bit for bit), every
//! command's `--help`, file names that need escaping, and bad input (missing or malformed
//! files, bad poses, bad options) giving a clear message and a non-zero status, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rapidpqp::io::load;
use rapidpqp::query::{CollideRequest, CollideResult, DistanceRequest, collide, distance, tolerance};
use rapidpqp::{Mat3, Model, Placement, Vec3};

const EXE: &str = env!("CARGO_BIN_EXE_rapidpqp");

fn mesh(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes").join(name)
}

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    let out = Command::new(EXE).args(args).output().expect("run rapidpqp");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked") && !stderr.contains("internal error"), "a panic:\n{stderr}");
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Runs a command that must succeed; its standard output.
fn ok<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let out = run(args);
    assert!(out.status.success(), "failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    stdout(&out)
}

/// Runs a command that must fail with `status`; its standard error (stdout must be empty).
fn fails<S: AsRef<std::ffi::OsStr>>(args: &[S], status: i32) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(status), "stderr: {err}\nstdout: {}", stdout(&out));
    assert!(out.stdout.is_empty(), "stdout on error: {}", stdout(&out));
    assert!(err.starts_with("rapidpqp: ") && err.ends_with('\n'), "{err:?}");
    err
}

// ------------------------------------------------------------------------------------------
// A minimal JSON parser (RFC 8259), strict: one value, nothing after it.

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn parse(text: &str) -> Json {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let v = p.value();
        p.ws();
        assert_eq!(p.i, p.s.len(), "text after the JSON value: {text:?}");
        v
    }
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => {
                let found: Vec<_> = fields.iter().filter(|(k, _)| k == key).collect();
                assert_eq!(found.len(), 1, "key {key:?} in {self:?}");
                &found[0].1
            }
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn keys(&self) -> Vec<&str> {
        match self {
            Json::Obj(fields) => fields.iter().map(|(k, _)| k.as_str()).collect(),
            _ => panic!("not an object"),
        }
    }
    /// The one member of a one-key object, which must be `key`.
    fn only(&self, key: &str) -> &Json {
        assert_eq!(self.keys(), [key]);
        self.get(key)
    }
    fn num(&self) -> f64 {
        match self {
            Json::Num(x) => *x,
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn int(&self) -> u64 {
        let x = self.num();
        assert!(x >= 0.0 && x.fract() == 0.0, "not a count: {x}");
        x as u64
    }
    fn bool(&self) -> bool {
        match self {
            Json::Bool(b) => *b,
            _ => panic!("not a boolean: {self:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn point(&self) -> Vec3 {
        match self {
            Json::Arr(v) if v.len() == 3 => Vec3::new(v[0].num(), v[1].num(), v[2].num()),
            _ => panic!("not a point: {self:?}"),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn eat(&mut self, b: u8) {
        self.ws();
        assert_eq!(self.s.get(self.i), Some(&b), "expected {:?} at {}", b as char, self.i);
        self.i += 1;
    }
    fn literal(&mut self, word: &str, v: Json) -> Json {
        assert!(self.s[self.i..].starts_with(word.as_bytes()), "bad literal at {}", self.i);
        self.i += word.len();
        v
    }
    fn value(&mut self) -> Json {
        self.ws();
        match self.s.get(self.i).copied().expect("a value") {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.s[self.i] == b'}' {
                    self.i += 1;
                    return Json::Obj(fields);
                }
                loop {
                    self.ws();
                    let key = self.string();
                    self.eat(b':');
                    fields.push((key, self.value()));
                    self.ws();
                    match self.s[self.i] {
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            return Json::Obj(fields);
                        }
                        c => panic!("unexpected {:?} in an object", c as char),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s[self.i] == b']' {
                    self.i += 1;
                    return Json::Arr(items);
                }
                loop {
                    items.push(self.value());
                    self.ws();
                    match self.s[self.i] {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            return Json::Arr(items);
                        }
                        c => panic!("unexpected {:?} in an array", c as char),
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            b't' => self.literal("true", Json::Bool(true)),
            b'f' => self.literal("false", Json::Bool(false)),
            b'n' => self.literal("null", Json::Null),
            _ => {
                let start = self.i;
                while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                // JSON's grammar: no leading '+', no bare '.', digits after '.'.
                assert!(
                    !text.starts_with('+') && !text.starts_with('.') && !text.contains(".e") && !text.ends_with('.')
                );
                Json::Num(text.parse().unwrap_or_else(|e| panic!("bad number {text:?}: {e}")))
            }
        }
    }
    fn string(&mut self) -> String {
        assert_eq!(self.s[self.i], b'"');
        self.i += 1;
        let mut out: Vec<u16> = Vec::new();
        loop {
            let c = self.s[self.i];
            self.i += 1;
            match c {
                b'"' => return String::from_utf16(&out).expect("valid UTF-16"),
                b'\\' => {
                    let e = self.s[self.i];
                    self.i += 1;
                    match e {
                        b'"' => out.push(0x22),
                        b'\\' => out.push(0x5c),
                        b'/' => out.push(0x2f),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(10),
                        b'r' => out.push(13),
                        b't' => out.push(9),
                        b'u' => {
                            let hex = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
                            out.push(u16::from_str_radix(hex, 16).unwrap());
                            self.i += 4;
                        }
                        _ => panic!("bad escape \\{}", e as char),
                    }
                }
                c if c < 0x20 => panic!("raw control character {c} in a string"),
                _ => {
                    // One UTF-8 character.
                    let len = match c {
                        0..=0x7f => 1,
                        0xc0..=0xdf => 2,
                        0xe0..=0xef => 3,
                        _ => 4,
                    };
                    let ch = std::str::from_utf8(&self.s[self.i - 1..self.i - 1 + len]).unwrap();
                    self.i += len - 1;
                    out.extend(ch.encode_utf16());
                }
            }
        }
    }
}

#[test]
fn the_json_parser_reads_what_it_should() {
    let v = Json::parse(r#" {"a": [1, -2.5e-3, true, null], "b\"\\\n\u00e9\ud83d\ude00": {}} "#);
    assert_eq!(v.get("a"), &Json::Arr(vec![Json::Num(1.0), Json::Num(-0.0025), Json::Bool(true), Json::Null]));
    assert_eq!(v.keys(), ["a", "b\"\\\né😀"]);
    for bad in ["{} {}", "{\"a\": 1,}", "[1 2]", "{\"a\": NaN}", "{\"a\": .5}"] {
        assert!(std::panic::catch_unwind(|| Json::parse(bad)).is_err(), "{bad}");
    }
}

// ------------------------------------------------------------------------------------------
// Answers

fn model(path: &Path) -> Model {
    let m = load(path).unwrap();
    Model::from_indexed(&m.vertices, &m.faces).unwrap()
}

fn translation(x: f64, y: f64, z: f64) -> Placement {
    Placement { rotation: Mat3::identity(), translation: Vec3::new(x, y, z), scale: 1.0 }
}

#[test]
fn collide_matches_the_rust_api() {
    let bunny = mesh("bunny_15k.obj");
    let m = model(&bunny);
    let pose = translation(0.05, 0.0, 0.0);
    let mut want = CollideResult::new();
    collide(&m, &Placement::IDENTITY, &m, &pose, &CollideRequest::default(), &mut want).unwrap();
    assert!(want.pairs.len() > 100);

    let b = bunny.to_str().unwrap();
    let v = Json::parse(&ok(&["collide", b, b, "--pose-b", "0.05,0,0", "--json", "--pairs"]));
    let c = v.only("collide");
    assert!(c.get("colliding").bool());
    assert_eq!(c.get("pairs").int(), want.pairs.len() as u64);
    assert_eq!((c.get("bv_tests").int(), c.get("tri_tests").int()), (want.bv_tests, want.tri_tests));
    assert!(!c.get("first_contact").bool());
    assert_eq!(c.get("a").str(), bunny.to_str().unwrap());
    let Json::Arr(contacts) = c.get("contacts") else { panic!("contacts") };
    let got: Vec<(i32, i32)> = contacts
        .iter()
        .map(|p| match p {
            Json::Arr(ij) => (ij[0].int() as i32, ij[1].int() as i32),
            _ => panic!("a pair"),
        })
        .collect();
    let want_pairs: Vec<(i32, i32)> = want.pairs.iter().map(|p| (p.id1, p.id2)).collect();
    assert_eq!(got, want_pairs);

    // Human output: the count and, with --pairs, one line per pair.
    let text = ok(&["collide", b, b, "--pose-b=0.05,0,0", "--pairs"]);
    assert!(text.contains(&format!("colliding: yes, {} contact pairs", want.pairs.len())), "{text}");
    let listed = text.lines().skip_while(|l| !l.starts_with("pairs")).skip(1).count();
    assert_eq!(listed, want.pairs.len());

    // --first stops at one pair; far apart there is none.
    let first = Json::parse(&ok(&["collide", b, b, "--pose-b", "0.05,0,0", "--first", "--json"]));
    assert_eq!(first.only("collide").get("pairs").int(), 1);
    let apart = Json::parse(&ok(&["collide", b, b, "--pose-b", "-1,0,0", "--json"]));
    assert!(!apart.only("collide").get("colliding").bool());
}

#[test]
fn distance_and_tolerance_match_the_rust_api() {
    let (a, b) = (mesh("bunny_15k.obj"), mesh("teapot.obj"));
    let (ma, mb) = (model(&a), model(&b));
    let rotation = nalgebra::Rotation3::from_axis_angle(&Vec3::z_axis(), 90f64.to_radians()).into_inner();
    let pose_b = Placement { rotation, translation: Vec3::new(4.0, 0.5, 0.0), scale: 1.0 };
    let want = distance(&ma, &Placement::IDENTITY, &mb, &pose_b, &DistanceRequest::default(), None).unwrap();
    let (sa, sb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let v = Json::parse(&ok(&["distance", sa, sb, "--pose-b", "4, 0.5, 0", "--rot-b", "0,0,1,90", "--json"]));
    let d = v.only("distance");
    assert_eq!(d.get("distance").num().to_bits(), want.distance.to_bits());
    assert_eq!(d.get("point_a").point(), want.p1);
    assert_eq!(d.get("point_b").point(), want.p2);
    assert_eq!((d.get("bv_tests").int(), d.get("tri_tests").int()), (want.bv_tests, want.tri_tests));
    assert_eq!(d.keys(), ["a", "b", "distance", "point_a", "point_b", "bv_tests", "tri_tests", "seconds"]);
    // The same pose as a 3x4 and a 4x4 matrix.
    let r = rotation;
    let rows = format!(
        "{:?},{:?},{:?},4,{:?},{:?},{:?},0.5,{:?},{:?},{:?},0",
        r[(0, 0)],
        r[(0, 1)],
        r[(0, 2)],
        r[(1, 0)],
        r[(1, 1)],
        r[(1, 2)],
        r[(2, 0)],
        r[(2, 1)],
        r[(2, 2)]
    );
    for matrix in [rows.clone(), format!("{rows},0,0,0,1")] {
        let v = Json::parse(&ok(&["distance", sa, sb, "--pose-b", &matrix, "--json"]));
        assert_eq!(v.only("distance").get("distance").num().to_bits(), want.distance.to_bits());
    }
    let text = ok(&["distance", sa, sb, "--pose-b", "4,0.5,0", "--rot-b", "0,0,1,90"]);
    assert!(text.contains(&format!("distance: {:?}\n", want.distance)), "{text}");

    // Tolerance on both sides of the distance.
    for (limit, within) in [(want.distance * 1.01, true), (want.distance * 0.99, false)] {
        let w = tolerance(&ma, &Placement::IDENTITY, &mb, &pose_b, limit, 0, None).unwrap();
        assert_eq!(w.closer, within);
        let arg = format!("{limit:?}");
        let v = Json::parse(&ok(&[
            "tolerance",
            sa,
            sb,
            "--pose-b",
            "4,0.5,0",
            "--rot-b",
            "0,0,1,90",
            "--tolerance",
            &arg,
            "--json",
        ]));
        let t = v.only("tolerance");
        assert_eq!(t.get("within").bool(), within);
        assert_eq!(t.get("tolerance").num(), limit);
        assert_eq!(t.get("distance").num().to_bits(), w.distance.to_bits());
        if within {
            assert_eq!(t.get("point_a").point(), w.p1);
        } else {
            assert_eq!((t.get("point_a"), t.get("point_b")), (&Json::Null, &Json::Null));
        }
        let text = ok(&["tolerance", sa, sb, "--pose-b", "4,0.5,0", "--rot-b", "0,0,1,90", "--tolerance", &arg]);
        assert!(text.contains(if within { ": yes" } else { ": no" }), "{text}");
    }
}

/// A rotation axis is a direction: finite numbers of any size give the rotation about it (the
/// axis 1e300,1e300,0 was refused as zero: its norm overflowed).
#[test]
fn a_rotation_axis_of_any_finite_size_is_a_direction() {
    let (a, b) = (mesh("bunny_15k.obj"), mesh("teapot.obj"));
    let (sa, sb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let rotation = nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(Vec3::new(1.0, 1.0, 0.0)), 1.25);
    let pose_b = Placement { rotation: rotation.into_inner(), translation: Vec3::new(4.0, 0.5, 0.0), scale: 1.0 };
    let want = distance(&model(&a), &Placement::IDENTITY, &model(&b), &pose_b, &DistanceRequest::default(), None);
    let want = want.unwrap().distance;
    let degrees = format!("{:?}", 1.25f64.to_degrees());
    for axis in ["1,1,0", "1e300,1e300,0", "1.7976931348623157e308,1.7976931348623157e308,0", "5e-324,5e-324,-0"] {
        let rot = format!("{axis},{degrees}");
        let v = Json::parse(&ok(&["distance", sa, sb, "--pose-b", "4,0.5,0", "--rot-b", &rot, "--json"]));
        let got = v.only("distance").get("distance").num();
        assert!((got - want).abs() <= 1e-12 * want, "--rot-b {rot}: {got} against {want}");
    }
}

#[test]
fn info_reports_the_model() {
    for (name, closed) in [("fandisk.obj", true), ("bunny.obj", false)] {
        let path = mesh(name);
        let loaded = load(&path).unwrap();
        let m = Model::from_indexed(&loaded.vertices, &loaded.faces).unwrap();
        let facts = m.solid_facts();
        let v = Json::parse(&ok(&[std::ffi::OsStr::new("info"), path.as_os_str(), "--json".as_ref()]));
        let i = v.only("info");
        assert_eq!(i.get("triangles").int(), m.num_triangles() as u64);
        assert_eq!(i.get("vertices").int(), loaded.vertices.len() as u64);
        assert_eq!(i.get("closed").bool(), closed);
        assert_eq!(i.get("boundary_edges").int(), facts.boundary_edges as u64);
        assert_eq!(i.get("tree_depth").int(), m.tree_depth() as u64);
        assert_eq!(i.get("tree_nodes").int(), m.num_nodes() as u64);
        assert_eq!(i.get("memory_bytes").int(), m.memory_bytes() as u64);
        if closed {
            assert_eq!(i.get("volume").num().to_bits(), facts.signed_volume.to_bits());
        } else {
            assert_eq!(i.get("volume"), &Json::Null);
        }
        let lo = i.get("bounds").get("min").point();
        let hi = i.get("bounds").get("max").point();
        for c in m.triangles().iter().flatten() {
            assert!((0..3).all(|k| lo[k] <= c[k] && c[k] <= hi[k]));
        }
        assert!((0..3).all(|k| m.triangles().iter().flatten().any(|c| c[k] == lo[k])));
        let text = ok(&[std::ffi::OsStr::new("info"), path.as_os_str()]);
        assert!(text.contains(&format!("triangles: {}\n", m.num_triangles())), "{text}");
        assert!(text.contains(if closed { "closed: yes" } else { "closed: no (223 boundary" }), "{text}");
    }
}

/// STL and PLY files work as OBJ ones do, and file names that JSON must escape come back intact.
#[test]
fn other_formats_and_awkward_file_names() {
    let teapot = load(mesh("teapot.obj")).unwrap();
    let dir = scratch();
    let mut stl = vec![0u8; 80];
    stl.extend_from_slice(&(teapot.faces.len() as u32).to_le_bytes());
    for f in &teapot.faces {
        stl.extend_from_slice(&[0; 12]);
        for &i in f {
            let v = teapot.vertices[i as usize];
            for c in [v.x, v.y, v.z] {
                stl.extend_from_slice(&(c as f32).to_le_bytes());
            }
        }
        stl.extend_from_slice(&[0; 2]);
    }
    let odd = dir.join("a \"quoted\" \\ back\tslash\u{1}\n✓ name.stl");
    std::fs::write(&odd, &stl).unwrap();
    let v = Json::parse(&ok(&[std::ffi::OsStr::new("info"), odd.as_os_str(), "--json".as_ref()]));
    let i = v.only("info");
    assert_eq!(i.get("file").str(), odd.to_str().unwrap());
    assert_eq!(i.get("triangles").int(), teapot.faces.len() as u64);
    let v = Json::parse(&ok(&[
        std::ffi::OsStr::new("collide"),
        odd.as_os_str(),
        mesh("teapot.obj").as_os_str(),
        "--first".as_ref(),
        "--json".as_ref(),
    ]));
    assert!(v.only("collide").get("colliding").bool());
    assert_eq!(v.only("collide").get("a").str(), odd.to_str().unwrap());
}

#[test]
fn bench_runs_briefly_and_reports_each_query() {
    let v = Json::parse(&ok(&["bench", "--seconds", "0.3", "--json"]));
    let b = v.only("bench");
    for q in ["collide", "distance", "tolerance"] {
        let t = b.get(q);
        assert!(t.get("queries").int() >= 1, "{q}");
        assert!(t.get("per_second").num() > 0.0 && t.get("bv_tests_per_query").num() > 0.0, "{q}");
    }
    assert_eq!(b.get("poses").int(), 64);
    assert!(b.get("tolerance").get("tolerance").num() > 0.0);
    let (a, c) = (mesh("teapot.obj"), mesh("fandisk.obj"));
    let text = ok(&[std::ffi::OsStr::new("bench"), a.as_os_str(), c.as_os_str(), "--seconds=0.3".as_ref()]);
    assert!(text.contains("collide") && text.contains("per second"), "{text}");
}

// ------------------------------------------------------------------------------------------
// Help, version, errors

#[test]
fn help_and_version() {
    assert_eq!(ok(&["--version"]), format!("rapidpqp {}\n", env!("CARGO_PKG_VERSION")));
    let top = ok(&["--help"]);
    assert_eq!(ok(&["help"]), top);
    for command in ["collide", "distance", "tolerance", "info", "bench"] {
        assert!(top.contains(command));
        let help = ok(&[command, "--help"]);
        assert!(help.starts_with(&format!("Usage: rapidpqp {command}")), "{help}");
        assert_eq!(ok(&[command, "-h"]), help);
        assert_eq!(ok(&["help", command]), help);
        // --help wins over everything else on the line.
        assert_eq!(ok(&[command, "missing.obj", "--help"]), help);
    }
}

#[test]
fn bad_input_gives_a_message_and_a_status() {
    let t = mesh("teapot.obj");
    let t = t.to_str().unwrap();
    let dir = scratch();
    let broken = dir.join("broken.ply");
    std::fs::write(&broken, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n").unwrap();
    let broken = broken.to_str().unwrap();
    // Bad input: status 1.
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["collide", "missing.obj", t], "missing.obj: cannot read"),
        (vec!["info", broken], "out of range"),
        (vec!["distance", t, "Cargo.toml"], "unknown mesh format"),
        // Numbers that are no pose: "pose" in the message, and the rotation tolerance.
        (vec!["collide", t, t, "--pose-a", "1,2,3,4,5,6,7,8,9,10,11,12"], "the pose's R is not a rotation"),
        (vec!["collide", t, t, "--pose-a", "1,2,3,4,5,6,7,8,9,10,11,12"], "rotation tolerance 1e-5"),
        (vec!["distance", t, t, "--pose-b", "1,0,0,0, 0,1,0,0, 0,0,1.001,0"], "rotation tolerance 1e-5"),
        (vec!["collide", t, t, "--pose-b", "1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,2"], "last row of a 4x4 pose matrix"),
        (vec!["collide", t, t, "--rot-b", "0,0,0,45"], "rotation axis must not be zero"),
        (vec!["tolerance", t, t, "--tolerance", "1", "--rot-a", "-0,0,0,45"], "rotation axis must not be zero"),
    ];
    for (args, message) in cases {
        let err = fails(&args, 1);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // A bad command line: status 2, and a pointer to the help.
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "no command"),
        (vec!["frobnicate"], "unknown command"),
        (vec!["collide", t], "two mesh files"),
        (vec!["collide", t, t, t], "two mesh files"),
        (vec!["collide", t, t, "--frob"], "unknown option --frob"),
        (vec!["collide", t, t, "-x"], "unknown option"),
        (vec!["collide", t, t, "--first", "--all"], "exclude each other"),
        (vec!["collide", t, t, "--json", "--json"], "given twice"),
        (vec!["collide", t, t, "--pose-a"], "needs a value"),
        (vec!["collide", t, t, "--json=yes"], "takes no value"),
        (vec!["tolerance", t, t], "needs --tolerance"),
        (vec!["tolerance", t, t, "--tolerance", "-1"], "must not be negative"),
        (vec!["tolerance", t, t, "--tolerance", "inf"], "not a finite number"),
        (vec!["tolerance", t, t, "--tolerance", "x"], "not a number"),
        // A malformed number list for a pose is a bad command line too (docs/cli.md, "Exit
        // status"), reported before any mesh file is read.
        (vec!["collide", t, t, "--pose-a", "1,2"], "expected 3 numbers"),
        (vec!["collide", "missing.obj", t, "--pose-b", "1,nan,0"], "not a finite number"),
        (vec!["collide", t, t, "--pose-b", "1,x,0"], "not a number"),
        (vec!["tolerance", t, t, "--tolerance", "1", "--pose-b", "1,x,0"], "not a number"),
        (vec!["distance", t, t, "--pose-b", "1,,2,3"], "empty number between commas"),
        (vec!["distance", t, t, "--pose-b", "1,2,3,"], "empty number between commas"),
        (vec!["distance", t, t, "--pose-b", ",1,2,3"], "empty number between commas"),
        (vec!["distance", t, t, "--pose-b", "1, ,2"], "empty number between commas"),
        (vec!["distance", t, t, "--pose-b", " "], "no number given"),
        (vec!["collide", t, t, "--rot-b", "0,0,1"], "expected 4 numbers"),
        (vec!["collide", t, t, "--rot-b", "0,0,1,45", "--pose-b", "1,0,0,0,0,1,0,0,0,0,1,0"], "3-number"),
        (vec!["distance", t, t, "--rel-err", "-0.1"], "must not be negative"),
        (vec!["bench", t], "no mesh or two"),
        (vec!["bench", "--seconds", "0"], "--seconds"),
        (vec!["info"], "one mesh file"),
        (vec!["help", "frob"], "no command"),
    ];
    for (args, message) in cases {
        let err = fails(&args, 2);
        assert!(err.contains(message) && err.contains("--help"), "{args:?}: {err}");
    }
}

/// Issue 25 item 5: `info` (every command loads through the same reader) refuses what is not
/// a regular file at once; it used to read /dev/zero and /dev/urandom until memory ran out.
/// A byte-order mark and bare CR line breaks read as the plain file does.
#[test]
fn devices_are_refused_and_marked_text_is_read() {
    for device in ["/dev/zero", "/dev/urandom"] {
        if Path::new(device).exists() {
            let err = fails(&["info", device], 1);
            assert!(err.contains(device) && err.contains("not a regular file"), "{err}");
        }
    }
    let dir = scratch();
    let plain = dir.join("plain.obj");
    let marked = dir.join("marked.obj");
    std::fs::write(&plain, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n").unwrap();
    std::fs::write(&marked, "\u{feff}v 0 0 0\rv 1 0 0\rv 0 1 0\r\nv 0 0 1\rf 1 2 3\rf 1 2 4\r").unwrap();
    // (All but the timings.)
    let info = |p: &Path| {
        let out = ok(&["info", p.to_str().unwrap()]).replace(p.to_str().unwrap(), "FILE");
        out.lines().filter(|l| !l.starts_with("load:")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(info(&marked), info(&plain));
}
