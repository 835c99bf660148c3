//! TODO(stub): the native CLI (`agentlines parse|session|dump`). Replaced by the real one.

fn main() {
    eprintln!("agentlines: not built yet");
    std::process::exit(2);
}
