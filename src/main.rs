fn main() {
    std::process::exit(hookx::cli::main());
}
