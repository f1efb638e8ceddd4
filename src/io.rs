//! Reading triangle meshes from Wavefront OBJ text (the subset meshes and fixtures use).

use crate::math::{Triangle, Vec3};

/// A mesh as vertices and zero-based index triples.
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    pub vertices: Vec<Vec3>,
    pub faces: Vec<[u32; 3]>,
}

impl Mesh {
    /// The faces as triangles, in file order.
    pub fn triangles(&self) -> Vec<Triangle> {
        self.faces.iter().map(|f| f.map(|i| self.vertices[i as usize])).collect()
    }
}

/// Parses OBJ text: `v x y z` vertices and `f` faces (entries `i`, `i/t`, `i//n`, `i/t/n`;
/// negative indices count back; polygons become fans). Other lines are ignored.
pub fn parse_obj(text: &str) -> Result<Mesh, String> {
    let mut mesh = Mesh::default();
    for (number, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let mut c = [0.0; 3];
                for v in &mut c {
                    *v = words
                        .next()
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| format!("line {}: bad vertex", number + 1))?;
                }
                mesh.vertices.push(Vec3::from(c));
            }
            Some("f") => {
                let mut corners = Vec::with_capacity(4);
                for w in words {
                    let index: i64 = w
                        .split('/')
                        .next()
                        .and_then(|i| i.parse().ok())
                        .ok_or_else(|| format!("line {}: bad face entry {w:?}", number + 1))?;
                    let n = mesh.vertices.len() as i64;
                    let zero_based = if index < 0 { n + index } else { index - 1 };
                    if zero_based < 0 || zero_based >= n {
                        return Err(format!("line {}: vertex index {index} out of range", number + 1));
                    }
                    corners.push(zero_based as u32);
                }
                if corners.len() < 3 {
                    return Err(format!("line {}: face with fewer than 3 corners", number + 1));
                }
                for k in 1..corners.len() - 1 {
                    mesh.faces.push([corners[0], corners[k], corners[k + 1]]);
                }
            }
            _ => {}
        }
    }
    Ok(mesh)
}

/// Reads and parses an OBJ file.
pub fn load_obj(path: impl AsRef<std::path::Path>) -> Result<Mesh, String> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_obj(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_faces_with_slashes_negatives_and_fans() {
        let m = parse_obj("# c\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2//3 3/4/5 4\nf -1 -2 -3\n").unwrap();
        assert_eq!(m.faces, vec![[0, 1, 2], [0, 2, 3], [3, 2, 1]]);
        assert!(parse_obj("v 0 0 0\nf 1 2 3\n").is_err());
    }
}
