;; agentlines: the decoder of the split-stream wasm container (scripts/wasm-split.mjs writes
;; the container and documents its layout; alUnsplit in glue.js runs this). Hand-written
;; WebAssembly, not JS: the same loop in JS costs 9-12 ms on the first call in a fresh Node
;; process (interpreted until V8's optimised code arrives, which takes as long), this one
;; ~3 ms and the characters -> bytes step before it (d) ~1.5 ms, both run once in Liftoff
;; (docs/bench.md, Decisions). scripts/assemble.mjs builds it with binaryen (wasm-opt
;; -Oz) and inlines its bytes (~1.2 KB) beside the wasm.
;;
;; The kind of each opcode (alUnsplit writes it from AL_OPS in glue.js, as runs of (first
;; opcode, kind)): 0 no immediate, 1-15 one LEB128 number from that stream (1 local, 2 global,
;; 3 call target, 6 i32.const, 7 i64.const, 10 branch depth, 11 block type, 12 other), 16
;; memarg (alignment from stream 4, offset from 5), 17 / 18 f32 / f64 bytes (streams 8, 9),
;; 19 br_table (10), 20 two numbers (12), 21 select's types (12), 22 0xFC and 23 0xFD
;; prefixes (sub-opcode in stream 0, immediates decided here), 255 no such opcode.
;;
;; Memory: bytes 0-255 the kind of each opcode, 256-315
;; each stream's read position (i32 x 15), 320-379 each stream's end, 1024-1279 the
;; character table (below), the container from 2048, the wasm written right after the
;; container. The glue writes the container's characters (the AGENTLINES_WASM string) at
;; 2048 as UTF-8 with TextEncoder.encodeInto (native: no JS loop over ~350 K characters,
;; which cost ~3 ms cold) and d(UTF-8 length) turns them into the container's bytes in
;; place; u(container length) then returns the wasm's length. Either returns a negative
;; number when its input does not add up (out-of-bounds access traps instead).
(module
  (memory (export "m") 1)
  (global $np (mut i32) (i32.const 0))

  ;; Characters -> bytes. The map (scripts/wasm-chars.mjs) gives the 256 byte values the 256
  ;; characters U+0000-U+00FF: one UTF-8 byte below U+0080, else two (lead byte C2 or C3; any
  ;; other lead byte, so any other character, fails the decode). The table at 1024 has the
  ;; byte for each code point c at 1024 + c (the glue writes it from AGENTLINES_WASM_MAP).
  ;; Decoded in place (the output never overtakes the input); returns the byte count.
  (func (export "d") (param $len i32) (result i32)
    (local $i i32) (local $o i32) (local $e i32) (local $c i32)
    (local.set $i (i32.const 2048))
    (local.set $o (i32.const 2048))
    (local.set $e (i32.add (i32.const 2048) (local.get $len)))
    (block $bad
      (block $done
        (loop $l
          (br_if $done (i32.ge_u (local.get $i) (local.get $e)))
          (local.set $c (i32.load8_u (local.get $i)))
          (if (i32.ge_u (local.get $c) (i32.const 128))
            (then
              (br_if $bad (i32.gt_u (i32.sub (local.get $c) (i32.const 0xc2)) (i32.const 1)))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (local.set $c (i32.or (i32.shl (i32.and (local.get $c) (i32.const 31)) (i32.const 6))
                (i32.and (i32.load8_u (local.get $i)) (i32.const 63))))))
          (i32.store8 (local.get $o) (i32.load8_u offset=1024 (local.get $c)))
          (local.set $o (i32.add (local.get $o) (i32.const 1)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $l)))
      (return (i32.sub (local.get $o) (i32.const 2048))))
    (i32.const -5))

  ;; The LEB128 number at p; $np is set to the byte after it.
  (func $num (param $p i32) (result i32)
    (local $r i32) (local $s i32) (local $b i32)
    (loop $l
      (local.set $b (i32.load8_u (local.get $p)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (local.set $r (i32.or (local.get $r)
        (i32.shl (i32.and (local.get $b) (i32.const 127)) (local.get $s))))
      (local.set $s (i32.add (local.get $s) (i32.const 7)))
      (br_if $l (i32.ge_u (local.get $b) (i32.const 128))))
    (global.set $np (local.get $p))
    (local.get $r))

  ;; Copies n LEB128 numbers from stream s to the output at o; returns the new o.
  (func $cp (param $s i32) (param $n i32) (param $o i32) (result i32)
    (local $x i32) (local $b i32)
    (local.set $x (i32.load offset=256 (i32.shl (local.get $s) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.eqz (local.get $n)))
        (loop $byte
          (local.set $b (i32.load8_u (local.get $x)))
          (i32.store8 (local.get $o) (local.get $b))
          (local.set $x (i32.add (local.get $x) (i32.const 1)))
          (local.set $o (i32.add (local.get $o) (i32.const 1)))
          (br_if $byte (i32.ge_u (local.get $b) (i32.const 128))))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $each)))
    (i32.store offset=256 (i32.shl (local.get $s) (i32.const 2)) (local.get $x))
    (local.get $o))

  ;; Copies n bytes from stream s to the output at o; returns the new o.
  (func $cpb (param $s i32) (param $n i32) (param $o i32) (result i32)
    (local $x i32)
    (local.set $x (i32.load offset=256 (i32.shl (local.get $s) (i32.const 2))))
    (memory.copy (local.get $o) (local.get $x) (local.get $n))
    (i32.store offset=256 (i32.shl (local.get $s) (i32.const 2)) (i32.add (local.get $x) (local.get $n)))
    (i32.add (local.get $o) (local.get $n)))

  (func (export "u") (param $clen i32) (result i32)
    (local $p i32) (local $i i32) (local $rest i32) (local $splice i32) (local $r0 i32)
    (local $start i32) (local $q i32) (local $h i32) (local $he i32) (local $fe i32)
    (local $b i32) (local $k i32) (local $n i32) (local $sub i32) (local $x i32) (local $o i32)
    ;; Header: rest length, splice offset, the streams' lengths.
    (local.set $rest (call $num (i32.const 2048)))
    (local.set $splice (call $num (global.get $np)))
    (local.set $p (global.get $np))
    (loop $l
      (i32.store offset=320 (local.get $i) (call $num (local.get $p)))
      (local.set $p (global.get $np))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 60))))
    (local.set $r0 (local.get $p))
    (local.set $p (i32.add (local.get $p) (local.get $rest)))
    (local.set $i (i32.const 0))
    (loop $l
      (i32.store offset=256 (local.get $i) (local.get $p))
      (local.set $p (i32.add (local.get $p) (i32.load offset=320 (local.get $i))))
      (i32.store offset=320 (local.get $i) (local.get $p))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 60))))
    (if (i32.ne (local.get $p) (i32.add (i32.const 2048) (local.get $clen)))
      (then (return (i32.const -1))))
    (if (i32.gt_u (local.get $splice) (local.get $rest))
      (then (return (i32.const -1))))
    ;; The sections before the function bodies.
    (local.set $start (local.get $p))
    (memory.copy (local.get $start) (local.get $r0) (local.get $splice))
    (local.set $o (i32.add (local.get $start) (local.get $splice)))
    (local.set $q (i32.load offset=256 (i32.const 0)))
    (local.set $h (i32.load offset=256 (i32.const 56)))
    (local.set $he (i32.load offset=320 (i32.const 56)))
    (local.set $fe (local.get $o))
    (block $finished
      (loop $next
        (if (i32.ge_u (local.get $o) (local.get $fe))
          (then
            (if (i32.ne (local.get $o) (local.get $fe)) (then (return (i32.const -2))))
            (br_if $finished (i32.ge_u (local.get $h) (local.get $he)))
            ;; A function body: its size, then its local declarations (count, count x
            ;; (number, one-byte type)), copied from the head stream as they are.
            (local.set $n (call $num (local.get $h)))
            (local.set $fe (i32.add (i32.add (local.get $o)
              (i32.sub (global.get $np) (local.get $h))) (local.get $n)))
            (local.set $k (call $num (global.get $np)))
            (local.set $p (global.get $np))
            (block $decls
              (loop $decl
                (br_if $decls (i32.eqz (local.get $k)))
                (drop (call $num (local.get $p)))
                (local.set $p (i32.add (global.get $np) (i32.const 1)))
                (local.set $k (i32.sub (local.get $k) (i32.const 1)))
                (br $decl)))
            (memory.copy (local.get $o) (local.get $h) (i32.sub (local.get $p) (local.get $h)))
            (local.set $o (i32.add (local.get $o) (i32.sub (local.get $p) (local.get $h))))
            (local.set $h (local.get $p))
            (br $next)))
        ;; An instruction: its opcode, then its immediates from their streams.
        (local.set $b (i32.load8_u (local.get $q)))
        (i32.store8 (local.get $o) (local.get $b))
        (local.set $o (i32.add (local.get $o) (i32.const 1)))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (local.set $k (i32.load8_u (local.get $b)))
        (br_if $next (i32.eqz (local.get $k)))
        (if (i32.lt_u (local.get $k) (i32.const 16)) ;; one number (inline: the common case)
          (then
            (local.set $x (i32.load offset=256 (i32.shl (local.get $k) (i32.const 2))))
            (loop $byte
              (local.set $b (i32.load8_u (local.get $x)))
              (i32.store8 (local.get $o) (local.get $b))
              (local.set $x (i32.add (local.get $x) (i32.const 1)))
              (local.set $o (i32.add (local.get $o) (i32.const 1)))
              (br_if $byte (i32.ge_u (local.get $b) (i32.const 128))))
            (i32.store offset=256 (i32.shl (local.get $k) (i32.const 2)) (local.get $x))
            (br $next)))
        (if (i32.eq (local.get $k) (i32.const 16)) ;; memarg
          (then (local.set $o (call $cp (i32.const 4) (i32.const 1) (local.get $o))) (local.set $o (call $cp (i32.const 5) (i32.const 1) (local.get $o))) (br $next)))
        (if (i32.eq (local.get $k) (i32.const 17)) ;; f32.const
          (then (local.set $o (call $cpb (i32.const 8) (i32.const 4) (local.get $o))) (br $next)))
        (if (i32.eq (local.get $k) (i32.const 18)) ;; f64.const
          (then (local.set $o (call $cpb (i32.const 9) (i32.const 8) (local.get $o))) (br $next)))
        (if (i32.eq (local.get $k) (i32.const 19)) ;; br_table: count, count + 1 depths
          (then
            (local.set $o (call $cp (i32.const 10)
              (i32.add (call $num (i32.load offset=256 (i32.const 40))) (i32.const 2)) (local.get $o)))
            (br $next)))
        (if (i32.eq (local.get $k) (i32.const 20)) ;; two numbers
          (then (local.set $o (call $cp (i32.const 12) (i32.const 2) (local.get $o))) (br $next)))
        (if (i32.eq (local.get $k) (i32.const 21)) ;; select t*: count, count types
          (then
            (local.set $n (call $num (i32.load offset=256 (i32.const 48))))
            (local.set $o (call $cp (i32.const 12) (i32.const 1) (local.get $o)))
            (local.set $o (call $cpb (i32.const 12) (local.get $n) (local.get $o)))
            (br $next)))
        (if (i32.gt_u (local.get $k) (i32.const 23)) (then (return (i32.const -3))))
        ;; 0xFC / 0xFD: the sub-opcode (LEB128) is in the opcode stream.
        (local.set $sub (call $num (local.get $q)))
        (i32.store offset=256 (i32.const 0) (local.get $q))
        (local.set $o (call $cp (i32.const 0) (i32.const 1) (local.get $o)))
        (local.set $q (i32.load offset=256 (i32.const 0)))
        (if (i32.eq (local.get $k) (i32.const 22))
          (then
            ;; 0-7 nothing; 8-14 two numbers when even, one when odd; 15-17 one.
            (if (i32.gt_u (local.get $sub) (i32.const 17)) (then (return (i32.const -3))))
            (if (i32.ge_u (local.get $sub) (i32.const 8))
              (then
                (local.set $o (call $cp (i32.const 12)
                  (select (i32.const 1)
                    (i32.sub (i32.const 2) (i32.and (local.get $sub) (i32.const 1)))
                    (i32.ge_u (local.get $sub) (i32.const 15))) (local.get $o)))))
            (br $next)))
        ;; 0xFD (simd128 / relaxed simd)
        (if (i32.or (i32.le_u (local.get $sub) (i32.const 11)) ;; 0-11 loads, store; 84-93
                    (i32.lt_u (i32.sub (local.get $sub) (i32.const 84)) (i32.const 10)))
          (then
            (local.set $o (call $cp (i32.const 4) (i32.const 1) (local.get $o)))
            (local.set $o (call $cp (i32.const 5) (i32.const 1) (local.get $o)))
            (if (i32.lt_u (i32.sub (local.get $sub) (i32.const 84)) (i32.const 8)) ;; 84-91: lane
              (then (local.set $o (call $cpb (i32.const 13) (i32.const 1) (local.get $o)))))
            (br $next)))
        (if (i32.lt_u (i32.sub (local.get $sub) (i32.const 12)) (i32.const 2)) ;; v128.const, shuffle
          (then (local.set $o (call $cpb (i32.const 13) (i32.const 16) (local.get $o))) (br $next)))
        (if (i32.lt_u (i32.sub (local.get $sub) (i32.const 21)) (i32.const 14)) ;; 21-34: lane
          (then (local.set $o (call $cpb (i32.const 13) (i32.const 1) (local.get $o))) (br $next)))
        (if (i32.gt_u (local.get $sub) (i32.const 0x113)) (then (return (i32.const -3))))
        (br $next)))
    ;; Every stream read to its end, then the sections after the code section.
    (i32.store offset=256 (i32.const 0) (local.get $q))
    (i32.store offset=256 (i32.const 56) (local.get $h))
    (local.set $i (i32.const 0))
    (loop $l
      (if (i32.ne (i32.load offset=256 (local.get $i)) (i32.load offset=320 (local.get $i)))
        (then (return (i32.const -4))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 60))))
    (memory.copy (local.get $o) (i32.add (local.get $r0) (local.get $splice))
      (i32.sub (local.get $rest) (local.get $splice)))
    (i32.sub (i32.add (local.get $o) (i32.sub (local.get $rest) (local.get $splice))) (local.get $start)))
)
