//! Command-line arguments: `--name value`, `--name=value`, flags, `-h`, and `--` before
//! positional arguments that start with a dash. Hand-written: the commands need little, and
//! the crate keeps its short dependency list.

use std::ffi::OsString;

/// The options of one command: name (without `--`) and whether it takes a value.
pub type Spec = &'static [(&'static str, bool)];

pub struct Parsed {
    pub positional: Vec<OsString>,
    options: Vec<(&'static str, Option<String>)>,
}

impl Parsed {
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == name)
    }

    pub fn value(&self, name: &str) -> Option<&str> {
        self.options.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.as_deref())
    }
}

/// Parses `args` (after the command's name) against `spec`; `help` is always known.
pub fn parse(args: &[OsString], spec: Spec) -> Result<Parsed, String> {
    let mut parsed = Parsed { positional: Vec::new(), options: Vec::new() };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let Some(text) = arg.to_str().filter(|t| t.starts_with('-') && t.len() > 1) else {
            parsed.positional.push(arg.clone());
            continue;
        };
        if text == "--" {
            parsed.positional.extend(rest.cloned());
            break;
        }
        if text == "-h" || text == "--help" {
            parsed.options.push(("help", None));
            continue;
        }
        let Some(body) = text.strip_prefix("--") else {
            return Err(format!("unknown option {text:?} (options are spelled --name)"));
        };
        let (name, inline) = match body.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (body, None),
        };
        let Some(&(known, takes_value)) = spec.iter().find(|(n, _)| *n == name) else {
            return Err(format!("unknown option --{name}"));
        };
        if parsed.flag(known) {
            return Err(format!("--{known} given twice"));
        }
        let value = match (takes_value, inline) {
            (true, Some(v)) => Some(v),
            (true, None) => match rest.next() {
                // A value may start with a dash (a negative number).
                Some(v) => Some(v.to_str().ok_or_else(|| format!("--{known}: the value is not UTF-8"))?.to_string()),
                None => return Err(format!("--{known} needs a value")),
            },
            (false, Some(_)) => return Err(format!("--{known} takes no value")),
            (false, None) => None,
        };
        parsed.options.push((known, value));
    }
    Ok(parsed)
}

/// Numbers separated by commas and/or whitespace, each finite. A comma separates exactly two
/// numbers: an empty field (`1,,2`, a leading or trailing comma) is refused, not skipped.
pub fn numbers(option: &str, text: &str) -> Result<Vec<f64>, String> {
    if text.trim().is_empty() {
        return Err(format!("--{option}: no number given"));
    }
    let mut values = Vec::new();
    for field in text.split(',') {
        let mut words = field.split_whitespace().peekable();
        if words.peek().is_none() {
            return Err(format!("--{option}: an empty number between commas in {text:?}"));
        }
        for w in words {
            values.push(match w.parse::<f64>() {
                Ok(x) if x.is_finite() => x,
                Ok(_) => return Err(format!("--{option}: {w:?} is not a finite number")),
                Err(_) => return Err(format!("--{option}: {w:?} is not a number")),
            });
        }
    }
    Ok(values)
}

/// One finite number.
pub fn number(option: &str, text: &str) -> Result<f64, String> {
    match numbers(option, text)?.as_slice() {
        [x] => Ok(*x),
        _ => Err(format!("--{option}: expected one number, got {text:?}")),
    }
}
