//! Errors of reading and validating `isa-spec/`: each names the file and,
//! where the YAML gives one, the line and column.

use std::fmt;

/// A position in an `isa-spec/` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

impl Loc {
    /// The position serde-saphyr recorded, if it knows one.
    pub(crate) fn from_saphyr(loc: serde_saphyr::Location) -> Option<Loc> {
        (loc.line() > 0).then(|| Loc {
            line: loc.line(),
            column: loc.column(),
        })
    }
}

/// One problem in one input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// Workspace-relative path (`isa-spec/gfx1201.yaml`).
    pub file: String,
    /// Where in the file, when known.
    pub loc: Option<Loc>,
    /// What is wrong.
    pub message: String,
}

impl SpecError {
    pub(crate) fn new(file: &str, loc: Option<Loc>, message: impl Into<String>) -> SpecError {
        SpecError {
            file: file.to_string(),
            loc,
            message: message.into(),
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.loc {
            Some(Loc { line, column }) => {
                write!(f, "{}:{line}:{column}: {}", self.file, self.message)
            }
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Everything that can go wrong between `isa-spec/` and the generated files.
#[derive(Debug)]
pub enum Error {
    /// Reading or writing a file failed.
    Io {
        /// The path involved.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The YAML is malformed or inconsistent: every problem found.
    Spec(Vec<SpecError>),
    /// The emitted tokens did not parse as Rust (a bug in the generator).
    Emit {
        /// The file being generated.
        file: String,
        /// syn's message.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{path}: {source}"),
            Error::Spec(errors) => {
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            Error::Emit { file, message } => {
                write!(f, "{file}: generated code does not parse: {message}")
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<Vec<SpecError>> for Error {
    fn from(errors: Vec<SpecError>) -> Error {
        Error::Spec(errors)
    }
}
