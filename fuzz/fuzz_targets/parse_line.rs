//! libFuzzer target: see `agentlines_fuzz::parse_line_target`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| agentlines_fuzz::parse_line_target(data));
