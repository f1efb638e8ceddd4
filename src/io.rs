//! Reading triangle meshes from Wavefront OBJ text (the subset meshes and fixtures use).

use crate::math::{Triangle, Vec3};

/// A mesh as vertices and zero-based index triples.
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    /// Vertex coordinates.
    pub vertices: Vec<Vec3>,
    /// Triangles as zero-based indices into `vertices`.
    pub faces: Vec<[u32; 3]>,
}

impl Mesh {
    /// The faces as triangles, in file order.
    pub fn triangles(&self) -> Vec<Triangle> {
        self.faces.iter().map(|f| f.map(|i| self.vertices[i as usize])).collect()
    }

    /// The connected components (faces sharing a vertex index), each as triangles in file
    /// order; the components ordered by their first face. Splits an assembly saved as one file
    /// (the bundled gear set) into its parts.
    pub fn components(&self) -> Vec<Vec<Triangle>> {
        // Union-find over vertex indices, halving paths.
        let mut up: Vec<usize> = (0..self.vertices.len()).collect();
        let find = |up: &mut Vec<usize>, mut v: usize| {
            while up[v] != v {
                up[v] = up[up[v]];
                v = up[v];
            }
            v
        };
        for f in &self.faces {
            let a = find(&mut up, f[0] as usize);
            for &i in &f[1..] {
                let b = find(&mut up, i as usize);
                up[b] = a;
            }
        }
        let mut slot = vec![usize::MAX; self.vertices.len()];
        let mut parts: Vec<Vec<Triangle>> = Vec::new();
        for f in &self.faces {
            let r = find(&mut up, f[0] as usize);
            if slot[r] == usize::MAX {
                slot[r] = parts.len();
                parts.push(Vec::new());
            }
            parts[slot[r]].push(f.map(|i| self.vertices[i as usize]));
        }
        parts
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

    #[test]
    fn components_are_the_faces_sharing_vertices() {
        // Two triangles sharing an edge, a lone triangle, and a triangle joined to the first
        // pair through a vertex only, listed last.
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 5 0 0\nv 6 0 0\nv 5 1 0\nv 2 2 0\nv 3 2 0\n\
                    f 1 2 3\nf 5 6 7\nf 2 4 3\nf 4 8 9\n";
        let parts = parse_obj(text).unwrap().components();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].len(), 3);
        assert_eq!(parts[1], vec![[Vec3::new(5.0, 0.0, 0.0), Vec3::new(6.0, 0.0, 0.0), Vec3::new(5.0, 1.0, 0.0)]]);
        assert_eq!(parts[0][2][2], Vec3::new(3.0, 2.0, 0.0));
    }
}
