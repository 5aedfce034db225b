//! Declares the opt-out of the C and C++ program tests
//! (tests/c_programs.rs): build_support/bindings_opt_out.rs.

include!("../build_support/bindings_opt_out.rs");

fn main() {
    declare_bindings_opt_out();
}
