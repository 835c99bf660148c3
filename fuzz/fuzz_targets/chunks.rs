//! libFuzzer target: see `agentlines_fuzz::chunks`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentlines_fuzz::chunks(data));
