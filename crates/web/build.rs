//! `include_dir!` reads `assets/` at compile time, but Cargo does not know
//! that: without this, editing a JavaScript file would leave the old one
//! embedded. A directory here makes Cargo rebuild when any file under it
//! changes.

fn main() {
    println!("cargo:rerun-if-changed=assets");
}
