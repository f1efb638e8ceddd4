//! The library's version, from Cargo.toml (as cargo tells the compiler), for C programs to
//! compare with the `RPQ_VERSION_*` macros that build.rs writes into the header from the same
//! Cargo.toml.

use std::ffi::c_char;

/// A decimal version part as a number, at compile time.
const fn parse_part(text: &str) -> u32 {
    let bytes = text.as_bytes();
    assert!(!bytes.is_empty(), "empty version part");
    let mut value = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i].is_ascii_digit(), "version part is not a number");
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

const MAJOR: u32 = parse_part(env!("CARGO_PKG_VERSION_MAJOR"));
const MINOR: u32 = parse_part(env!("CARGO_PKG_VERSION_MINOR"));
const PATCH: u32 = parse_part(env!("CARGO_PKG_VERSION_PATCH"));

// The packing of `RPQ_MAKE_VERSION`: three decimal digits for minor and patch.
const _: () = assert!(MINOR < 1000 && PATCH < 1000 && MAJOR < 4294);

/// `RPQ_MAKE_VERSION(MAJOR, MINOR, PATCH)`.
const NUMBER: u32 = MAJOR * 1_000_000 + MINOR * 1_000 + PATCH;

/// The version as C text.
const TEXT: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The version of the library linked, as one number: `RPQ_MAKE_VERSION(major, minor, patch)`,
/// i.e. `major * 1000000 + minor * 1000 + patch`. A program compares it with the header's
/// `RPQ_VERSION_NUMBER` (equal: the header and the library are the same release).
#[unsafe(no_mangle)]
pub extern "C" fn rpq_version() -> u32 {
    NUMBER
}

/// The version of the library linked as text, e.g. "0.1.0" (with any pre-release part),
/// as the header's `RPQ_VERSION_STRING`. Static: never free it.
#[unsafe(no_mangle)]
pub extern "C" fn rpq_version_string() -> *const c_char {
    TEXT.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_matches_cargo() {
        let text = env!("CARGO_PKG_VERSION");
        let parts: Vec<u32> = text.split(['.', '-', '+']).take(3).map(|p| p.parse().unwrap()).collect();
        assert_eq!(rpq_version(), parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2]);
        // SAFETY: a static NUL-terminated string.
        let c = unsafe { std::ffi::CStr::from_ptr(rpq_version_string()) };
        assert_eq!(c.to_str().unwrap(), text);
        assert_eq!(parse_part("0"), 0);
        assert_eq!(parse_part("120"), 120);
    }
}
