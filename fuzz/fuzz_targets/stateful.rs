//! libFuzzer target: see `agentlines_fuzz::stateful`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentlines_fuzz::stateful(data));
