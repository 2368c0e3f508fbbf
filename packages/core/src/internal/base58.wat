;; Base58 (base58btc) decoding with 64-bit integer arithmetic: the part of decoding a
;; MerkleProof2019 proofValue that JavaScript's doubles make slow (see base58.ts).
;;
;; Memory (one page):
;;   0..127      digit value of each ASCII code, 255 for characters outside the alphabet
;;   128..       TEXT: the text's bytes, as TextEncoder writes them (at most 4096)
;;   LIMBS       the number in big-endian limbs of 58^5, one i64 each
;;   GROUPS      its 32-bit groups, least significant first
;;   OUT         the decoded bytes, big-endian, without leading zero bytes
;;
;; decode(at, n): the digits are the n bytes at TEXT + at, the first of which is not "1" (the
;; caller skips the leading "1"s, which are leading zero bytes). Returns how many bytes it
;; wrote at OUT, or -1 when a byte is not a base58 digit. n is at most 4096 (the layout's room).
(module
  (memory (export "memory") 1)
  (data (i32.const 0)
    "\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff"
    "\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\00\01\02\03\04\05\06\07\08\ff\ff\ff\ff\ff\ff"
    "\ff\09\0a\0b\0c\0d\0e\0f\10\ff\11\12\13\14\15\ff\16\17\18\19\1a\1b\1c\1d\1e\1f\20\ff\ff\ff\ff\ff"
    "\ff\21\22\23\24\25\26\27\28\29\2a\2b\ff\2c\2d\2e\2f\30\31\32\33\34\35\36\37\38\39\ff\ff\ff\ff\ff")

  (global $TEXT i32 (i32.const 128))
  (global $LIMBS i32 (i32.const 4224))
  (global $GROUPS i32 (i32.const 10880))
  (global $OUT i32 (i32.const 14080))
  ;; 58^5 = 656,356,768 < 2^32: a limb times 2^32 plus a limb stays below 2^63.
  (global $B i64 (i64.const 656356768))

  (func (export "decode") (param $at i32) (param $n i32) (result i32)
    (local $base i32) (local $count i32) (local $i i32) (local $p i32) (local $end i32) (local $c i32) (local $d i32)
    (local $limb i64) (local $start i32) (local $g i32) (local $addr i32) (local $k i32) (local $top i32)
    (local $x i64) (local $q i64)
    (local $r1 i64) (local $r2 i64) (local $r3 i64) (local $r4 i64)
    (local $r5 i64) (local $r6 i64) (local $r7 i64) (local $r8 i64)

    ;; Digits → limbs of five digits; the first limb takes what is left over (1–5 digits).
    (local.set $base (i32.add (global.get $TEXT) (local.get $at)))
    (local.set $count (i32.div_u (i32.add (local.get $n) (i32.const 4)) (i32.const 5)))
    (local.set $end (i32.sub (local.get $n) (i32.mul (i32.sub (local.get $count) (i32.const 1)) (i32.const 5))))
    (local.set $i (i32.const 0))
    (local.set $p (i32.const 0))
    (block $bad
      (loop $limbs
        (local.set $limb (i64.const 0))
        (block $done
          (loop $digits
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $c (i32.load8_u (i32.add (local.get $base) (local.get $p))))
            (br_if $bad (i32.ge_u (local.get $c) (i32.const 128)))
            (local.set $d (i32.load8_u (local.get $c)))
            (br_if $bad (i32.eq (local.get $d) (i32.const 255)))
            (local.set $limb (i64.add (i64.mul (local.get $limb) (i64.const 58)) (i64.extend_i32_u (local.get $d))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $digits)))
        (i64.store (i32.add (global.get $LIMBS) (i32.shl (local.get $i) (i32.const 3))) (local.get $limb))
        (local.set $end (i32.add (local.get $p) (i32.const 5)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $limbs (i32.lt_u (local.get $i) (local.get $count))))

      ;; Eight divisions by 2^32 per sweep, each limb step feeding its quotient to the next
      ;; division: eight independent remainder chains keep the multiplier busy.
      (local.set $g (i32.const 0))
      (local.set $start (i32.const 0))
      (loop $sweeps
        (local.set $r1 (i64.const 0)) (local.set $r2 (i64.const 0))
        (local.set $r3 (i64.const 0)) (local.set $r4 (i64.const 0))
        (local.set $r5 (i64.const 0)) (local.set $r6 (i64.const 0))
        (local.set $r7 (i64.const 0)) (local.set $r8 (i64.const 0))
        (local.set $addr (i32.add (global.get $LIMBS) (i32.shl (local.get $start) (i32.const 3))))
        (local.set $end (i32.add (global.get $LIMBS) (i32.shl (local.get $count) (i32.const 3))))
        (loop $sweep
          (local.set $x (i64.add (i64.mul (local.get $r1) (global.get $B)) (i64.load (local.get $addr))))
          (local.set $q (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $r1 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (local.set $x (i64.add (i64.mul (local.get $r2) (global.get $B)) (local.get $q)))
          (local.set $q (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $r2 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (local.set $x (i64.add (i64.mul (local.get $r3) (global.get $B)) (local.get $q)))
          (local.set $q (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $r3 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (local.set $x (i64.add (i64.mul (local.get $r4) (global.get $B)) (local.get $q)))
          (local.set $q (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $r4 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (local.set $x (i64.add (i64.mul (local.get $r5) (global.get $B)) (local.get $q)))
          (local.set $q (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $r5 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (local.set $x (i64.add (i64.mul (local.get $r6) (global.get $B)) (local.get $q)))
          (local.set $q (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $r6 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (local.set $x (i64.add (i64.mul (local.get $r7) (global.get $B)) (local.get $q)))
          (local.set $q (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $r7 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (local.set $x (i64.add (i64.mul (local.get $r8) (global.get $B)) (local.get $q)))
          (local.set $r8 (i64.and (local.get $x) (i64.const 0xffffffff)))
          (i64.store (local.get $addr) (i64.shr_u (local.get $x) (i64.const 32)))
          (local.set $addr (i32.add (local.get $addr) (i32.const 8)))
          (br_if $sweep (i32.lt_u (local.get $addr) (local.get $end))))
        (local.set $addr (i32.add (global.get $GROUPS) (i32.shl (local.get $g) (i32.const 2))))
        (i32.store offset=0 (local.get $addr) (i32.wrap_i64 (local.get $r1)))
        (i32.store offset=4 (local.get $addr) (i32.wrap_i64 (local.get $r2)))
        (i32.store offset=8 (local.get $addr) (i32.wrap_i64 (local.get $r3)))
        (i32.store offset=12 (local.get $addr) (i32.wrap_i64 (local.get $r4)))
        (i32.store offset=16 (local.get $addr) (i32.wrap_i64 (local.get $r5)))
        (i32.store offset=20 (local.get $addr) (i32.wrap_i64 (local.get $r6)))
        (i32.store offset=24 (local.get $addr) (i32.wrap_i64 (local.get $r7)))
        (i32.store offset=28 (local.get $addr) (i32.wrap_i64 (local.get $r8)))
        (local.set $g (i32.add (local.get $g) (i32.const 8)))
        ;; Skip the limbs that became zero at the top.
        (block $skipped
          (loop $skip
            (br_if $skipped (i32.ge_u (local.get $start) (local.get $count)))
            (br_if $skipped (i64.ne (i64.load (i32.add (global.get $LIMBS) (i32.shl (local.get $start) (i32.const 3)))) (i64.const 0)))
            (local.set $start (i32.add (local.get $start) (i32.const 1)))
            (br $skip)))
        (br_if $sweeps (i32.lt_u (local.get $start) (local.get $count))))

      ;; Big-endian bytes from the top non-zero group down (the first digit is not zero, so
      ;; there is one).
      (loop $top
        (local.set $g (i32.sub (local.get $g) (i32.const 1)))
        (local.set $top (i32.load (i32.add (global.get $GROUPS) (i32.shl (local.get $g) (i32.const 2)))))
        (br_if $top (i32.eqz (local.get $top))))
      (local.set $k (global.get $OUT))
      (if (i32.ge_u (local.get $top) (i32.const 0x1000000))
        (then
          (i32.store8 (local.get $k) (i32.shr_u (local.get $top) (i32.const 24)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))))
      (if (i32.ge_u (local.get $top) (i32.const 0x10000))
        (then
          (i32.store8 (local.get $k) (i32.shr_u (local.get $top) (i32.const 16)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))))
      (if (i32.ge_u (local.get $top) (i32.const 0x100))
        (then
          (i32.store8 (local.get $k) (i32.shr_u (local.get $top) (i32.const 8)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))))
      (i32.store8 (local.get $k) (local.get $top))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (block $written
        (loop $bytes
          (br_if $written (i32.eqz (local.get $g)))
          (local.set $g (i32.sub (local.get $g) (i32.const 1)))
          (local.set $top (i32.load (i32.add (global.get $GROUPS) (i32.shl (local.get $g) (i32.const 2)))))
          (i32.store8 offset=0 (local.get $k) (i32.shr_u (local.get $top) (i32.const 24)))
          (i32.store8 offset=1 (local.get $k) (i32.shr_u (local.get $top) (i32.const 16)))
          (i32.store8 offset=2 (local.get $k) (i32.shr_u (local.get $top) (i32.const 8)))
          (i32.store8 offset=3 (local.get $k) (local.get $top))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br $bytes)))
      (return (i32.sub (local.get $k) (global.get $OUT))))
    (i32.const -1)))
