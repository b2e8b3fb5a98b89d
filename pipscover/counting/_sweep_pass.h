/* The vector pass of _inclusion_exclusion.c (and its `through`'s batch), written once for both register widths:
   that file includes it twice, once with AVX2's operations named (WIDTH 8 points a pass, __m256i) and once with
   AVX-512's (WIDTH 16, __m512i), so that the two passes are one text. Per state and lane, the WIDTH points' values
   side by side (one register: a 32-byte half line or a 64-byte line); a source's even points' values times their
   weights in one product (the low halves of its 64-bit parts), its odd points' (shifted down) in another; the same
   folds as `folded`, side by side, then the halves put back together. `lanes` is a constant where `PASS_OF` is
   inlined (and its loops unrolled), so that the sums stay in registers: a third of the time. Where the ring's
   values are past the L2 (`ask_ahead`), the values of the source PREFETCH_AHEAD edges on are asked for ahead (the
   graph's `from` is padded past its last edge), since a source's values are read at random within the ring: planted
   6 x 8's point takes 0.75 of its time (encodings/counting.md).

   Named by the includer: VECTOR (the register type), WIDTH, TARGET (the functions' target attribute), PASS_OF,
   PASS and BATCH (the functions' names), and the operations SET1, ZERO, LOAD, STORE, ADD, AND, SHIFT_RIGHT,
   SHIFT_LEFT, MULTIPLY (signed, the 64-bit parts' low halves), MULTIPLY_UNSIGNED, ODD_FROM (the even 32-bit
   halves of the first, the odd of the second); it undefines them at its end, so that it may be included again. */

__attribute__((target(TARGET), always_inline)) static inline void PASS_OF(int32_t *values, const int lanes, Graph graph,
                                                                         const i64 *weights, const Layings *through) {
    const VECTOR low = SET1(LOW_30);
    VECTOR cuts[MOST_LANES], biases[MOST_LANES];
    for (int lane = 0; lane < lanes; lane++) {
        cuts[lane] = SET1(CUTS[lane]);
        biases[lane] = SET1(bias(lane));
    }
    for (int i = 0; i < lanes * WIDTH; i++) values[i] = 1;
    for (Py_ssize_t state = 1; state <= graph.final; state++) {
        VECTOR even[MOST_LANES], odd[MOST_LANES], on[MOST_LANES];
#pragma GCC unroll 6
        for (int lane = 0; lane < lanes; lane++) {
            even[lane] = odd[lane] = ZERO();
            if (through) on[lane] = LOAD((const VECTOR *)(through->backward + (graph.final - state) * lanes * WIDTH) + lane);
        }
        for (int e = graph.starts[state]; e < graph.starts[state + 1]; e++) {
            const int32_t group = through ? through->edge_groups[e] : -1;
            if (graph.ask_ahead) {
                const char *ahead = (const char *)(values + (Py_ssize_t)(graph.from[e + PREFETCH_AHEAD] & graph.ring) * lanes * WIDTH);
                for (int line = 0; line < lanes * WIDTH * 4; line += 64) _mm_prefetch(ahead + line, _MM_HINT_T0);
            }
            const VECTOR *v = (const VECTOR *)(values + (Py_ssize_t)(graph.from[e] & graph.ring) * lanes * WIDTH);
            const i64 *w = weights + graph.by[e] * WIDTH;
            VECTOR w_even = LOAD((const VECTOR *)w), w_odd = LOAD((const VECTOR *)(w + WIDTH / 2));
#pragma GCC unroll 6
            for (int lane = 0; lane < lanes; lane++) {
                VECTOR x = LOAD(v + lane);
                even[lane] = ADD(even[lane], MULTIPLY(x, w_even));
                odd[lane] = ADD(odd[lane], MULTIPLY(SHIFT_RIGHT(x, 32), w_odd));
                if (group >= 0) {  /* through's: F x B, added to the held sums of the edge's group */
                    VECTOR halves[2] = {MULTIPLY_UNSIGNED(x, on[lane]), MULTIPLY_UNSIGNED(SHIFT_RIGHT(x, 32), SHIFT_RIGHT(on[lane], 32))};
                    for (int h = 0; h < 2; h++)
                        for (int fold = 0; fold < 2; fold++)
                            halves[h] = ADD(AND(halves[h], low), MULTIPLY_UNSIGNED(SHIFT_RIGHT(halves[h], 30), cuts[lane]));
                    VECTOR *sums = (VECTOR *)(through->held + ((Py_ssize_t)group * lanes + lane) * WIDEST);
                    STORE(sums, ADD(LOAD(sums), halves[0]));
                    STORE(sums + 1, ADD(LOAD(sums + 1), halves[1]));
                }
            }
        }
        VECTOR *out = (VECTOR *)(values + (state & graph.ring) * lanes * WIDTH);
#pragma GCC unroll 6
        for (int lane = 0; lane < lanes; lane++) {
            VECTOR halves[2] = {even[lane], odd[lane]};
            for (int h = 0; h < 2; h++) {
                VECTOR y = ADD(halves[h], biases[lane]);
                VECTOR once = ADD(AND(y, low), MULTIPLY_UNSIGNED(SHIFT_RIGHT(y, 30), cuts[lane]));
                halves[h] = ADD(AND(once, low), MULTIPLY_UNSIGNED(SHIFT_RIGHT(once, 30), cuts[lane]));
            }
            STORE(out + lane, ODD_FROM(halves[0], SHIFT_LEFT(halves[1], 32)));
        }
    }
}

/* A pass of a count (`through` NULL), or through's forward pass, its layings' F x B added as it goes: a loop for
   each number of lanes, and for each of the two (the first's holds nothing of the second's). */
#define PASS_OF_EACH(values, lanes, graph, weights, through) \
    switch (lanes) { \
    case 1: PASS_OF(values, 1, graph, weights, through); break; \
    case 2: PASS_OF(values, 2, graph, weights, through); break; \
    case 3: PASS_OF(values, 3, graph, weights, through); break; \
    case 4: PASS_OF(values, 4, graph, weights, through); break; \
    case 5: PASS_OF(values, 5, graph, weights, through); break; \
    default: PASS_OF(values, 6, graph, weights, through); \
    }

__attribute__((target(TARGET))) static void PASS(int32_t *values, int lanes, Graph graph, const i64 *weights) {
    PASS_OF_EACH(values, lanes, graph, weights, NULL)
}

__attribute__((target(TARGET))) static void THROUGH_PASS(const Layings *l, int lanes, Graph graph, const i64 *weights) {
    PASS_OF_EACH(l->forward, lanes, graph, weights, l)
}

/* `through`'s batch in these registers (_inclusion_exclusion.c: `add_through` and `settle` say what, in the
   plain loops): the backward pass, then the forward one, which adds F x B at the WIDTH points per edge and lane
   to its group's held sums (the even points' products in one register, the odd points' in another, folded
   side by side) as it reads F; at the batch's end, each group's held sums (folded) times the type's weights
   of each of its layings at the points, the even and odd parts added and folded into the laying's totals,
   WIDTH / 2 parts a lane. */
__attribute__((target(TARGET))) static void BATCH(const Layings *l, Graph graph, Graph turned, const i64 *weights,
                                                 int lanes) {
    const VECTOR low = SET1(LOW_30), zero = ZERO();
    PASS(l->backward, lanes, turned, weights);
    THROUGH_PASS(l, lanes, graph, weights);
    for (Py_ssize_t g = 0; g < l->groups; g++)
        for (int lane = 0; lane < lanes; lane++) {
            const VECTOR cut = SET1(CUTS[lane]);
            VECTOR *sums = (VECTOR *)(l->held + (g * lanes + lane) * WIDEST);
            VECTOR halves[2] = {LOAD(sums), LOAD(sums + 1)};
            for (int h = 0; h < 2; h++)
                for (int fold = 0; fold < 2; fold++)
                    halves[h] = ADD(AND(halves[h], low), MULTIPLY_UNSIGNED(SHIFT_RIGHT(halves[h], 30), cut));
            for (int32_t k = l->group_start[g]; k < l->group_start[g + 1]; k++) {
                const int32_t laying = l->group_layings[k];
                VECTOR *total = (VECTOR *)(l->totals + ((Py_ssize_t)laying * lanes + lane) * WIDEST / 2);
                VECTOR w = LOAD((const VECTOR *)(l->kind_weights + ((Py_ssize_t)l->kinds[laying] * lanes + lane) * WIDTH));
                VECTOR terms = ADD(MULTIPLY_UNSIGNED(halves[0], w), MULTIPLY_UNSIGNED(halves[1], SHIFT_RIGHT(w, 32)));
                for (int fold = 0; fold < 2; fold++) terms = ADD(AND(terms, low), MULTIPLY_UNSIGNED(SHIFT_RIGHT(terms, 30), cut));
                terms = ADD(LOAD(total), terms);
                STORE(total, ADD(AND(terms, low), MULTIPLY_UNSIGNED(SHIFT_RIGHT(terms, 30), cut)));
            }
            STORE(sums, zero);
            STORE(sums + 1, zero);
        }
}

#undef VECTOR
#undef WIDTH
#undef TARGET
#undef PASS_OF
#undef PASS
#undef THROUGH_PASS
#undef PASS_OF_EACH
#undef BATCH
#undef SET1
#undef ZERO
#undef LOAD
#undef STORE
#undef ADD
#undef AND
#undef SHIFT_RIGHT
#undef SHIFT_LEFT
#undef MULTIPLY
#undef MULTIPLY_UNSIGNED
#undef ODD_FROM
