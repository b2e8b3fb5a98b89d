/* The compiled core of pipscover.counting.inclusion_exclusion: its sweeps, sixteen or eight points a pass, in C.

   inclusion_exclusion.py says what is summed and why (Ryser's formula over the domino types) and keeps the
   Python twin of `total` (`sweep_total`), which this follows: the same points in the same order (Ryser's or
   Glynn's, as `Points` gives them), the same pull-style pass over the sweep's graph (each state the sum of
   its sources times their forms' weights; its states taken in another order that still puts every source
   first, `reordered`: the same sums), and the same residues, modulo each of the first `lanes` primes
   2^30 - c (c small), which the Python side combines (Chinese remainders) into the sum modulo their product.

   Why residues modulo primes near 2^30: a form's weight is a small integer, so a value below 2^31 times a
   weight is one signed 32 x 32 -> 64-bit product, and a state's sum stays within 64 bits, reduced once a
   state (2^30 = c modulo the prime: two folds). AVX2 makes four such products in one instruction, so a pass
   sweeps eight points at once: per state and lane, the eight points' values side by side (32 bytes), an
   edge's source and form read once for all eight. Callgrind, no-unique-22's first 64 points: 7.6
   instructions an edge and a point with the four primes its bound needs (4.7 with two), against 26.9 for
   the 128-bit sum this replaces (the product of a 128-bit value by a word, its high word's product and a
   sign's correction). Where the processor has AVX-512 (this project's machines do), a pass sweeps sixteen
   points, eight products an instruction, a lane's values of a state in one 64-byte line: with the states
   renumbered (`reordered`), planted 6 x 6's count takes 0.66 of the CPU it took at eight points a pass in
   the graph's own order; encodings/counting.md has the measurements. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "_sweep_graph.h"

#ifndef SOURCE_DIGEST  /* setup.py gives the SHA-256 of the core's sources: the tests check the core is current */
#define SOURCE_DIGEST ""
#define SOURCE_FILES "_inclusion_exclusion.c"
#endif

typedef uint64_t u64;
typedef int64_t i64;

/* The lanes' primes, 2^30 - c for these c (inclusion_exclusion.PRIMES); a count takes the first few. */
#define MOST_LANES 6
static const i64 CUTS[MOST_LANES] = {35, 41, 83, 101, 105, 107};
#define WIDEST 16  /* the most points a pass: sixteen with AVX-512, eight with AVX2 and in the plain loop */
#define LOW_30 (((i64)1 << 30) - 1)
/* The most that a form's weight times a state's sources may be: a value is below 2^31, so a state's sum
   stays within 2^60 (`folded` takes up to 2^61 - 2^30). */
#define WEIGHT_LIMIT ((i64)1 << 29)

static i64 prime(int lane) { return ((i64)1 << 30) - CUTS[lane]; }

/* A multiple of the lane's prime at least 2^61 - 2^30: added to a state's sum, it makes it nonnegative. */
static i64 bias(int lane) { return ((i64)1 << 61) / prime(lane) * prime(lane); }

/* A state's sum x (|x| < 2^61 - 2^30) modulo the lane's prime p, up to a multiple of p: a number in [0, 2^31).
   x + bias is in [0, 2^62); its part above 2^30 is below 2^32, and 2^30 = c modulo p: folded twice. */
static inline int32_t folded(i64 x, int lane) {
    i64 y = x + bias(lane);
    i64 once = (y & LOW_30) + (y >> 30) * CUTS[lane];
    return (int32_t)((once & LOW_30) + (once >> 30) * CUTS[lane]);
}

/* The sweep's graph: the edges into state s are starts[s] to starts[s + 1], from from[e], of form by[e].
   A pass keeps state s's values at slot s & ring (`ring_of`), and asks for them ahead when they are past
   the L2 (`ask_ahead`, `past_the_l2`). The sums are taken at the last `outputs` states (the covered board
   alone, for a count; a sample's choices, `sweep_sample.py`). */
typedef struct {
    Py_ssize_t final, ring;
    const int *starts, *from, *by;
    int ask_ahead;
    Py_ssize_t outputs;
} Graph;

/* What `through` works on besides the graph: the states' values at the batch's points, forward and backward
   (every state kept); each edge's group (`edge_groups[e]`, -1 for a step that lays nothing), the edges that
   make the same layings sharing one: its layings `group_layings[group_start[g]]` to `group_layings[
   group_start[g + 1] - 1]`, and each laying's type (`kinds`); the groups' held sums and the layings' totals
   (`add_through`, `settle`); the types' weights with the points' signs (`kind_weights`). */
typedef struct {
    int32_t *forward, *backward;
    const int32_t *edge_groups, *group_start, *group_layings, *kinds;
    Py_ssize_t groups, layings;
    u64 *held, *totals;
    const uint32_t *kind_weights;
} Layings;

/* How many edges on a pass asks for a source's values before it reads them (_sweep_pass.h): about as many
   as are read while the memory answers. On planted 6 x 8, 16 to 48 took the same time. */
#define PREFETCH_AHEAD 24

/* Whether `bytes` of values are past a core's L2 (1 MiB where the system does not say): only then does a
   pass ask ahead, since where the ring fits the asking costs more than it saves (planted 4 x 12: 1.07). */
static int past_the_l2(size_t bytes) {
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return bytes > (l2 > 0 ? (size_t)l2 : (size_t)1 << 20);
}

static void free_graph(Graph graph) { free((void *)graph.starts); free((void *)graph.from); free((void *)graph.by); }

/* `weights[form * width + slot]`: the form's weight at the batch's `width` points, the even points (0, 2, 4,
   ...) first, then the odd ones (as the vector products take them). */
static inline int slot_of(int point, int width) { return (point & 1) * (width / 2) + point / 2; }

/* One pass at the batch's `width` points: each state the sum of its sources times their forms' weights, in
   each lane; `values[((state & ring) * lanes + lane) * width + point]`. */
static void pass(int32_t *values, int lanes, Graph graph, const i64 *weights, int width) {
    for (int i = 0; i < lanes * width; i++) values[i] = 1;
    for (Py_ssize_t state = 1; state <= graph.final; state++) {
        i64 sums[MOST_LANES][WIDEST] = {{0}};
        for (int e = graph.starts[state]; e < graph.starts[state + 1]; e++) {
            const int32_t *v = values + (Py_ssize_t)(graph.from[e] & graph.ring) * lanes * width;
            const i64 *w = weights + graph.by[e] * width;
            for (int lane = 0; lane < lanes; lane++)
                for (int point = 0; point < width; point++)
                    sums[lane][point] += (i64)v[lane * width + point] * w[slot_of(point, width)];
        }
        for (int lane = 0; lane < lanes; lane++)
            for (int point = 0; point < width; point++)
                values[((state & graph.ring) * lanes + lane) * width + point] = folded(sums[lane][point], lane);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VECTORS 1

/* `pass` in AVX2, eight points a pass (_sweep_pass.h). */
#define VECTOR __m256i
#define WIDTH 8
#define TARGET "avx2"
#define PASS_OF pass_avx2_of
#define PASS pass_avx2
#define THROUGH_PASS through_pass_avx2
#define BATCH through_batch_avx2
#define SET1 _mm256_set1_epi64x
#define ZERO _mm256_setzero_si256
#define LOAD _mm256_loadu_si256
#define STORE _mm256_storeu_si256
#define ADD _mm256_add_epi64
#define AND _mm256_and_si256
#define SHIFT_RIGHT _mm256_srli_epi64
#define SHIFT_LEFT _mm256_slli_epi64
#define MULTIPLY _mm256_mul_epi32
#define MULTIPLY_UNSIGNED _mm256_mul_epu32
#define ODD_FROM(a, b) _mm256_blend_epi32(a, b, 0xAA)
#include "_sweep_pass.h"

/* `pass` in AVX-512, sixteen points a pass: a lane's values of a state fill one 64-byte line. */
#define VECTOR __m512i
#define WIDTH 16
#define TARGET "avx512f"
#define PASS_OF pass_avx512_of
#define PASS pass_avx512
#define THROUGH_PASS through_pass_avx512
#define BATCH through_batch_avx512
#define SET1 _mm512_set1_epi64
#define ZERO _mm512_setzero_si512
#define LOAD(p) _mm512_loadu_si512((const void *)(p))
#define STORE(p, x) _mm512_storeu_si512((void *)(p), x)
#define ADD _mm512_add_epi64
#define AND _mm512_and_si512
#define SHIFT_RIGHT _mm512_srli_epi64
#define SHIFT_LEFT _mm512_slli_epi64
#define MULTIPLY _mm512_mul_epi32
#define MULTIPLY_UNSIGNED _mm512_mul_epu32
#define ODD_FROM(a, b) _mm512_mask_blend_epi32(0xAAAA, a, b)
#include "_sweep_pass.h"
#else
#define pass_avx2(values, lanes, graph, weights) pass(values, lanes, graph, weights, 8)
#define pass_avx512(values, lanes, graph, weights) pass(values, lanes, graph, weights, 8)
#endif

static int read_ints(PyObject *list, long long *out, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLongLong(PyList_GET_ITEM(list, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* Whether the graph's buffers hold C ints and agree in length: `final` + 2 starts, first[final + 1] edges. */
static int graph_fits(const Py_buffer *first, const Py_buffer *sources, const Py_buffer *edge_forms, Py_ssize_t final) {
    if (final >= 0 && first->len == (final + 2) * (Py_ssize_t)sizeof(int) && sources->len == edge_forms->len &&
        sources->len == ((const int *)first->buf)[final + 1] * (Py_ssize_t)sizeof(int))
        return 1;
    PyErr_SetString(PyExc_ValueError, "total: first, sources and edge_forms: C ints, final + 2 and first[final + 1]");
    return 0;
}

/* How many lanes `primes` asks for (1 to MOST_LANES, the first of this core's primes), or -1. */
static int lanes_of(PyObject *primes) {
    Py_ssize_t lanes = PyList_GET_SIZE(primes);
    int agree = lanes >= 1 && lanes <= MOST_LANES;
    for (int lane = 0; agree && lane < lanes; lane++)
        agree = PyLong_AsLongLong(PyList_GET_ITEM(primes, lane)) == prime(lane);
    if (agree) return (int)lanes;
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "total: the primes are the first 1 to 6 of 2^30 - 35, 41, 83, 101, 105, 107");
    return -1;
}

/* The widest weight the lanes take: WEIGHT_LIMIT over the most sources a state has. */
static i64 widest_weight(Graph graph) {
    i64 most = 1;
    for (Py_ssize_t state = 1; state <= graph.final; state++)
        if (graph.starts[state + 1] - graph.starts[state] > most) most = graph.starts[state + 1] - graph.starts[state];
    return WEIGHT_LIMIT / most;
}

/* A state of one level and where it goes within it: after the states whose first source (in the new numbers)
   comes earlier, then in the old order. */
typedef struct {
    int first_source, old;
} Placing;

static int by_first_source(const void *a, const void *b) {
    const Placing *x = a, *y = b;
    return x->first_source != y->first_source ? (x->first_source > y->first_source) - (x->first_source < y->first_source)
                                              : (x->old > y->old) - (x->old < y->old);
}

/* The graph's states renumbered for the passes, so that a state's values are read soon after they are
   written: level by level (a state's level one past its sources' highest, so sources still come first: the
   empty board first, the covered one alone on the last), and within a level by the first of each
   state's sources in the new numbering, so that the targets of nearby sources sit together. Any order that
   puts sources first sums the same; this one brings them nearer: on planted 6 x 6 the longest edge spans
   24,169 states, not 56,068 (a ring of 32,768 slots, not 65,536), and the values still to be read are 10,299
   states' by mean over a pass, not 16,070 (encodings/counting.md). Into `ordered`, its arrays allocated here,
   `from` padded with PREFETCH_AHEAD zeroes (slot 0) past its last edge, for the passes that ask ahead
   (the caller frees them, `free_graph`, whatever is returned); 0 when out of memory. */
static int reordered(Graph graph, Graph *ordered) {
    Py_ssize_t states = graph.final + 1, edges = graph.starts[states];
    int *level = calloc(states, sizeof(int)), *new_of = calloc(states, sizeof(int)), *starts = calloc(states + 1, sizeof(int));
    int *from = calloc(edges + PREFETCH_AHEAD, sizeof(int)), *by = calloc(edges + 1, sizeof(int)), *at = calloc(states + 2, sizeof(int));
    Placing *order = calloc(states, sizeof(Placing));
    *ordered = (Graph){graph.final, 0, starts, from, by, 0, graph.outputs};
    int made = level && new_of && starts && from && by && at && order;
    if (!made) {
        free(level); free(new_of); free(at); free(order);
        return 0;
    }
    /* The highest level before the outputs' (the covered board's, for a count): they go past it, each alone on
       a level of its own and in their order, last, where `swept` reads them. */
    int top = 0;
    Py_ssize_t tail = graph.final - graph.outputs + 1;
    for (Py_ssize_t state = 0; state < states; state++) {
        for (int e = graph.starts[state]; e < graph.starts[state + 1]; e++)
            if (level[graph.from[e]] + 1 > level[state]) level[state] = level[graph.from[e]] + 1;
        if (state < tail && level[state] > top) top = level[state];
    }
    for (Py_ssize_t state = tail; graph.final > 0 && state <= graph.final; state++) level[state] = top + 1 + (int)(state - tail);
    for (Py_ssize_t state = 0; state < states; state++) at[level[state] + 1]++;
    for (Py_ssize_t l = 0; l < states; l++) at[l + 1] += at[l];  /* at[l]: where level l starts */
    for (Py_ssize_t state = 0; state < states; state++) order[at[level[state]]++].old = (int)state;
    for (Py_ssize_t i = 0, next = 0; i < states; i = next) {  /* a level a turn */
        for (next = i; next < states && level[order[next].old] == level[order[i].old]; next++) {
            int state = order[next].old, first_source = -1;
            for (int e = graph.starts[state]; e < graph.starts[state + 1]; e++)
                if (first_source < 0 || new_of[graph.from[e]] < first_source) first_source = new_of[graph.from[e]];
            order[next].first_source = first_source;
        }
        qsort(order + i, next - i, sizeof(Placing), by_first_source);
        for (Py_ssize_t j = i; j < next; j++) new_of[order[j].old] = (int)j;
    }
    for (Py_ssize_t state = 0; state < states; state++) {
        int old = order[state].old, e = starts[state];
        for (int source = graph.starts[old]; source < graph.starts[old + 1]; source++, e++) {
            from[e] = new_of[graph.from[source]];
            by[e] = graph.by[source];
        }
        starts[state + 1] = e;
    }
    free(level); free(new_of); free(at); free(order);
    return 1;
}

/* Which slots a pass keeps the states' values in: a state's are read only by states at most `span` (the
   longest edge) after it, so a ring of the next power of two past it holds every value still to be read, and
   state s's go to slot s & ring (the returned mask). On planted 6 x 6, in the graph's own order, that was
   65,536 slots of 116,011 states (6.3 MB of values with three primes at eight points a pass instead of 11
   MB): callgrind's cache model, a 16 MB last level, 469,054 misses -> 56,261 over 64 points; one process
   about a fifth less CPU. Renumbered (`reordered`), 32,768 slots (6.3 MB at sixteen points a pass). */
static Py_ssize_t ring_of(Graph graph) {
    Py_ssize_t span = 0, ring = 1;
    for (Py_ssize_t state = 1; state <= graph.final; state++)
        for (int e = graph.starts[state]; e < graph.starts[state + 1]; e++)
            if (state - graph.from[e] > span) span = state - graph.from[e];
    while (ring <= span) ring *= 2;
    return ring - 1;
}

/* What the points are made of: type t's digits are digit_start[t] to digit_start[t + 1] - 1 of `weight` (the
   type's weight) and of `signs` (the sign's residue in each lane, `lanes` a digit); form f is the pairs
   (type, times) pairs[form_start[f]] to pairs[form_start[f + 1] - 1], type -1 for the step that lays nothing. */
typedef struct {
    Py_ssize_t types, forms;
    const long long *digits, *digit_start, *weight, *form_start, *pairs;
    const u64 *signs;
} Points;

/* The forms' weights at the batch's `count` points (`point[p * types + t]`, their digits) into `weights` (0
   at the slots past them); 0 when one passes `widest`. */
static int batch_weights(i64 *weights, const long long *point, int count, int width, Points points, i64 widest) {
    int fits = 1;
    for (Py_ssize_t f = 0; f < points.forms; f++)
        for (int p = 0; p < width; p++) {
            i64 w = 0;
            for (long long i = points.form_start[f]; p < count && i < points.form_start[f + 1]; i += 2) {
                long long type = points.pairs[i];
                w += points.pairs[i + 1] * (type < 0 ? 1 : points.weight[points.digit_start[type] + point[p * points.types + type]]);
            }
            weights[f * width + slot_of(p, width)] = w;
            fits &= w <= widest && w >= -widest;
        }
    return fits;
}

/* The batch's `count` points' signs in each lane (`signs[lane * WIDEST + point]`): the product of the point's
   digits' signs, modulo the lane's prime. */
static void batch_signs(u64 *signs, int lanes, const long long *point, int count, Points points) {
    for (int lane = 0; lane < lanes; lane++) {
        u64 p = (u64)prime(lane);
        for (int b = 0; b < count; b++) {
            u64 sign = 1;
            for (Py_ssize_t t = 0; t < points.types; t++)
                sign = sign * points.signs[(points.digit_start[t] + point[b * points.types + t]) * lanes + lane] % p;
            signs[lane * WIDEST + b] = sign;
        }
    }
}

/* The batch's `count` points' terms added to `sums` (one a lane): in each lane, the point's sign times the
   state's value (`value[lane * width + point]`), modulo the lane's prime. A term is below 2^61 (a value below
   2^31, a sign below 2^30), so four add up within 64 bits: one reduction for four (a sample's sweeps take
   their sums at a hundred states, `sweep_sample.py`). */
static void add_terms(u64 *sums, int lanes, const u64 *signs, int count, int width, const int32_t *value) {
    for (int lane = 0; lane < lanes; lane++) {
        u64 p = (u64)prime(lane), sum = sums[lane];
        for (int b = 0; b < count; b++) {
            sum += (u64)value[lane * width + b] * signs[lane * WIDEST + b];
            if (b % 4 == 3) sum %= p;
        }
        sums[lane] = sum % p;
    }
}

/* The batch's `width` points from the point numbered `number` on, the first type fastest. */
static void batch_points(long long *point, Py_ssize_t number, int width, Points points) {
    for (int b = 0; b < width; b++)
        for (Py_ssize_t t = 0, rest = number + b; t < points.types; t++) {
            point[b * points.types + t] = rest % points.digits[t];
            rest /= points.digits[t];
        }
}

/* Reads `digits`, `weights`, `signs` and `forms` into `points` (its arrays allocated here); -1 on an error. */
static int read_points(Points *points, PyObject *digits, PyObject *weights, PyObject *signs, PyObject *forms, int lanes) {
    Py_ssize_t types = points->types = PyList_GET_SIZE(digits), form_count = points->forms = PyList_GET_SIZE(forms);
    long long *digit_start = calloc(types + 1, sizeof(long long)), *form_start = calloc(form_count + 1, sizeof(long long));
    long long *read = calloc(types + 1, sizeof(long long)), *weight = NULL, *pairs = NULL;
    u64 *residues = NULL;
    points->digits = read, points->digit_start = digit_start, points->form_start = form_start;
    if (!digit_start || !form_start || !read) { PyErr_NoMemory(); return -1; }
    if (read_ints(digits, read, types) < 0) return -1;
    for (Py_ssize_t t = 0; t < types; t++) digit_start[t + 1] = digit_start[t] + read[t];
    if (PyList_GET_SIZE(signs) != lanes * digit_start[types] || PyList_GET_SIZE(weights) != digit_start[types]) {
        PyErr_SetString(PyExc_ValueError, "total: a weight and a sign's residue in each lane per digit");
        return -1;
    }
    for (Py_ssize_t f = 0; f < form_count; f++) form_start[f + 1] = form_start[f] + PyList_GET_SIZE(PyList_GET_ITEM(forms, f));
    points->weight = weight = calloc(digit_start[types] + 1, sizeof(long long));
    points->signs = residues = calloc(lanes * digit_start[types] + 1, sizeof(u64));
    points->pairs = pairs = calloc(form_start[form_count] + 1, sizeof(long long));
    if (!weight || !residues || !pairs) { PyErr_NoMemory(); return -1; }
    if (read_ints(weights, weight, digit_start[types]) < 0) return -1;
    for (Py_ssize_t i = 0; i < lanes * digit_start[types]; i++) {
        residues[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(signs, i));
        if (PyErr_Occurred()) return -1;
    }
    for (Py_ssize_t f = 0; f < form_count; f++)
        if (read_ints(PyList_GET_ITEM(forms, f), pairs + form_start[f], form_start[f + 1] - form_start[f]) < 0) return -1;
    return 0;
}

static void free_points(Points points) {
    free((void *)points.digits); free((void *)points.digit_start); free((void *)points.weight);
    free((void *)points.form_start); free((void *)points.pairs); free((void *)points.signs);
}

/* `bytes` of zeroes from the start of a 64-byte line (rounded up to whole lines), so that no vector of a
   state's values or a form's weights straddles two lines; NULL when out of memory. */
static void *lines_of(size_t bytes) {
    size_t size = (bytes + 63) / 64 * 64;
    void *made = aligned_alloc(64, size);
    return made ? memset(made, 0, size) : NULL;
}

/* `check(done)` (the clock, the progress) and Python's signals (Ctrl-C): -1, an error set, to stop. */
static int checked_at(PyObject *check, Py_ssize_t done) {
    PyObject *so_far = PyLong_FromSsize_t(done);
    PyObject *checked = so_far ? PyObject_CallOneArg(check, so_far) : NULL;
    Py_XDECREF(so_far);
    if (!checked || PyErr_CheckSignals() < 0) { Py_XDECREF(checked); return -1; }
    Py_DECREF(checked);
    return 0;
}

/* The residues of the sum over the points numbered begin to end - 1, a batch a pass (`vectors`: the pass,
   512 AVX-512's of sixteen points, 256 AVX2's of eight, 0 the plain loop's of eight); NULL on an error. */
static PyObject *swept(Points points, Graph graph, int lanes, PyObject *check, Py_ssize_t every, Py_ssize_t begin,
                       Py_ssize_t end, int vectors) {
    PyObject *result = NULL;
    int width = vectors == 512 ? 16 : 8;
    i64 *weights = lines_of((points.forms + 1) * width * sizeof(i64)), widest = widest_weight(graph);
    size_t bytes = (graph.ring + 1) * lanes * width * sizeof(int32_t);
    int32_t *values = lines_of(bytes);
    graph.ask_ahead = past_the_l2(bytes);
    long long *point = calloc(width * points.types + 1, sizeof(long long));
    u64 *sums = calloc(graph.outputs * MOST_LANES, sizeof(u64));  /* output after output, a sum a lane */
    u64 signs[MOST_LANES * WIDEST];
    if (!weights || !values || !point || !sums) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t done = 0; done < end - begin; done += width) {
        if (done % every < width && checked_at(check, done) < 0) goto done;
        int count = end - begin - done < width ? (int)(end - begin - done) : width, fits;
        Py_BEGIN_ALLOW_THREADS
        batch_points(point, begin + done, width, points);
        fits = batch_weights(weights, point, count, width, points, widest);
        if (fits && vectors == 512) pass_avx512(values, lanes, graph, weights);
        else if (fits && vectors == 256) pass_avx2(values, lanes, graph, weights);
        else if (fits) pass(values, lanes, graph, weights, width);
        if (fits) batch_signs(signs, lanes, point, count, points);
        for (Py_ssize_t o = 0, first = graph.final - graph.outputs + 1; fits && o < graph.outputs; o++)
            add_terms(sums + o * MOST_LANES, lanes, signs, count, width, values + ((first + o) & graph.ring) * lanes * width);
        Py_END_ALLOW_THREADS
        if (!fits) {
            PyErr_SetString(PyExc_OverflowError, "total: a form's weight times a state's sources passes 2^29");
            goto done;
        }
    }
    result = PyTuple_New(graph.outputs * lanes);
    for (Py_ssize_t i = 0; result && i < graph.outputs * lanes; i++) {
        PyObject *residue = PyLong_FromUnsignedLongLong(sums[i / lanes * MOST_LANES + i % lanes]);
        if (!residue) { Py_CLEAR(result); break; }
        PyTuple_SET_ITEM(result, i, residue);
    }
done:
    free(weights); free(values); free(point); free(sums);
    return result;
}

/* The widest registers the passes take, of those `asked` (512 AVX-512's, 256 AVX2's, 0 the plain loop's), as the
   processor has them. */
static int widest_vectors(int asked) {
#ifdef VECTORS
    if (asked >= 512 && __builtin_cpu_supports("avx512f")) return 512;
    if (asked >= 256 && __builtin_cpu_supports("avx2")) return 256;
#endif
    return 0;
}

#define ORDERED_GRAPH "pipscover.counting._inclusion_exclusion.ordered"

static void free_ordered(PyObject *capsule) {
    Graph *graph = PyCapsule_GetPointer(capsule, ORDERED_GRAPH);
    free_graph(*graph);
    free(graph);
}

/* ordered(first, sources, edge_forms, final, outputs=1) -> the graph in the passes' order (`reordered`,
   `ring_of`), for `total`, which sums at its last `outputs` states: made once per graph, since a split
   count's worker sweeps one graph chunk after chunk and the renumbering cost 8 ms a chunk on planted 6 x 6,
   51 ms on 6 x 8. `first`, `sources` and `edge_forms` are buffers of C ints (array "i"). */
static PyObject *ordered_graph(PyObject *self, PyObject *args) {
    Py_buffer first = {0}, sources = {0}, edge_forms = {0};
    Py_ssize_t final, outputs = 1;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*n|n:ordered", &first, &sources, &edge_forms, &final, &outputs)) return NULL;
    if (outputs < 1 || (final > 0 && outputs > final))
        PyErr_SetString(PyExc_ValueError, "ordered: 1 to `final` outputs");
    else if (graph_fits(&first, &sources, &edge_forms, final)) {
        Graph *graph = malloc(sizeof(Graph));
        if (graph && reordered((Graph){final, 0, first.buf, sources.buf, edge_forms.buf, 0, outputs}, graph)) {
            graph->ring = ring_of(*graph);
            result = PyCapsule_New(graph, ORDERED_GRAPH, free_ordered);
        } else
            PyErr_NoMemory();
        if (!result && graph) { free_graph(*graph); free(graph); }
    }
    PyBuffer_Release(&first); PyBuffer_Release(&sources); PyBuffer_Release(&edge_forms);
    return result;
}

/* total(digits, weights, signs, primes, forms, graph, check, every, begin, end, vectors) -> the residues modulo
   `primes`: the twin's `sweep_totals` over the points numbered begin to end - 1 (a chunk, for a task of a
   split count), on `graph` (what `ordered` made), at each of its outputs, output after output.
   A point is one digit per type, the first type fastest: type t has `digits[t]` of them; `weights` holds,
   type after type, the weight each digit gives the type (k in Ryser's form, m - 2j in Glynn's: it may be
   negative) and `signs` its sign's residue modulo each of `primes` (the first few of this core's); `forms`
   each form as a flat list (type, times, type, times, ...), type -1 for the step that lays nothing;
   `check(points done)` is called every `every` points of the chunk (a multiple of 16); `vectors`: the widest
   registers the passes may take, 512 (AVX-512), 256 (AVX2) or 0 (the plain loop), where the processor has
   them (else the next). The sweeps run without the GIL, so that the threads of a Dask worker sweep side by
   side (on one graph: the passes only read it). */
static PyObject *total(PyObject *self, PyObject *args) {
    PyObject *digits, *weights, *signs, *primes, *forms, *capsule, *check, *result = NULL;
    Py_ssize_t every, begin, end;
    int vectors, lanes;
    Points points = {0};
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!OOnnni:total", &PyList_Type, &digits, &PyList_Type, &weights,
                          &PyList_Type, &signs, &PyList_Type, &primes, &PyList_Type, &forms, &capsule, &check,
                          &every, &begin, &end, &vectors))
        return NULL;
    Graph *graph = PyCapsule_GetPointer(capsule, ORDERED_GRAPH);
    if (graph && (lanes = lanes_of(primes)) > 0 && read_points(&points, digits, weights, signs, forms, lanes) == 0)
        result = swept(points, *graph, lanes, check, every, begin, end, widest_vectors(vectors));
    free_points(points);
    return result;
}

/* A 64-bit number reduced modulo the lane's prime up to a multiple of it: below 2^31 (`folded`'s two folds:
   its part above 2^30 is below 2^34, times c below 2^41). */
static inline u64 folded_u(u64 x, int lane) {
    u64 once = (x & LOW_30) + (x >> 30) * (u64)CUTS[lane];
    return (once & LOW_30) + (once >> 30) * (u64)CUTS[lane];
}

/* The graph as it is given (no renumbering), every state's values kept: a ring as long as the graph. Its
   `from` is a copy padded past the last edge (0 when out of memory; the caller frees it), so that a pass asks
   ahead for the sources' values where `lanes` x `width` values a state are past the L2. */
static Graph whole(const Py_buffer *first, const Py_buffer *sources, const Py_buffer *edge_forms, Py_ssize_t final,
                   int lanes, int width) {
    Py_ssize_t ring = 1;
    while (ring <= final) ring *= 2;
    int *from = calloc(sources->len / sizeof(int) + PREFETCH_AHEAD, sizeof(int));
    if (from) memcpy(from, sources->buf, sources->len);
    return (Graph){final, ring - 1, first->buf, from, edge_forms->buf, past_the_l2(ring * lanes * width * sizeof(int32_t)), 1};
}

/* Whether the groups are as `through` reads them: a group or -1 an edge, the starts rising from 0 to the
   layings' length, each laying below `layings` and its kind one of the points' types (C ints); else a
   ValueError set. */
static int layings_fit(const Py_buffer *edge_groups, const Py_buffer *group_start, const Py_buffer *group_layings,
                       const Py_buffer *kinds, Py_ssize_t edges, Py_ssize_t types) {
    const int32_t *group = edge_groups->buf, *start = group_start->buf, *into = group_layings->buf, *kind = kinds->buf;
    Py_ssize_t groups = group_start->len / (Py_ssize_t)sizeof(int32_t) - 1, layings = kinds->len / (Py_ssize_t)sizeof(int32_t);
    int fits = edge_groups->len == edges * (Py_ssize_t)sizeof(int32_t) && groups >= 0 && start[0] == 0 &&
               start[groups] * (Py_ssize_t)sizeof(int32_t) == group_layings->len;
    for (Py_ssize_t e = 0; fits && e < edges; e++) fits = group[e] >= -1 && group[e] < groups;
    for (Py_ssize_t g = 0; fits && g < groups; g++) fits = start[g] <= start[g + 1];
    for (Py_ssize_t i = 0; fits && i < start[groups]; i++) fits = into[i] >= 0 && into[i] < layings;
    for (Py_ssize_t k = 0; fits && k < layings; k++) fits = kind[k] >= 0 && kind[k] < types;
    if (!fits) PyErr_SetString(PyExc_ValueError, "through: edge_groups, a group or -1 an edge; group_start, a start a group "
                                                 "and one more, rising to group_layings' length; each laying below "
                                                 "len(kinds), each kind a type");
    return fits;
}

/* One batch's F x B of every group (the plain loop; BATCH in registers): for edge e from u into s, F(u) times
   B(s) (the reversed graph's value at final - s) at each point, folded below 2^31 and added to the held sums
   (`held[(group * lanes + lane) * WIDEST + point]`) of its group. The batch adds each sum fewer than 2^31 such
   terms (the graph's edges), so that it stays below 2^62, which two folds take. */
static void add_through(const Layings *l, Graph graph, int lanes, int count) {
    for (Py_ssize_t s = 1; s <= graph.final; s++) {
        const int32_t *b = l->backward + (graph.final - s) * lanes * 8;
        for (int e = graph.starts[s]; e < graph.starts[s + 1]; e++) {
            const int32_t *f = l->forward + (Py_ssize_t)graph.from[e] * lanes * 8;
            for (int lane = 0; l->edge_groups[e] >= 0 && lane < lanes; lane++)
                for (int point = 0; point < count; point++)
                    l->held[((Py_ssize_t)l->edge_groups[e] * lanes + lane) * WIDEST + point] +=
                        folded_u((u64)f[lane * 8 + point] * (u64)b[lane * 8 + point], lane);
        }
    }
}

/* The batch's end (the plain loop; BATCH in registers): each group's held sums, folded, times the type's
   weights of each of its layings with the points' signs (`kind_weights[(kind * lanes + lane) * 8 + point]`),
   added and folded into the laying's totals (`totals[(laying * lanes + lane) * WIDEST / 2]`, below 2^31), the
   held sums made 0 for the next batch. The weights bring in the types only here, once a group's laying and
   batch, not once an edge: the edges that make the same layings share their held sums (planted 6 x 6: 153,161
   edges that lay, 1,248 groups). */
static void settle(const Layings *l, int lanes, int count) {
    for (Py_ssize_t g = 0; g < l->groups; g++)
        for (int lane = 0; lane < lanes; lane++) {
            u64 *sums = l->held + (g * lanes + lane) * WIDEST;
            for (int32_t k = l->group_start[g]; k < l->group_start[g + 1]; k++) {
                const uint32_t *w = l->kind_weights + ((Py_ssize_t)l->kinds[l->group_layings[k]] * lanes + lane) * 8;
                u64 batch = 0, *total = l->totals + ((Py_ssize_t)l->group_layings[k] * lanes + lane) * WIDEST / 2;
                for (int point = 0; point < count; point++) batch += folded_u(sums[point], lane) * w[point];
                *total = folded_u(*total + folded_u(batch, lane), lane);
            }
            for (int point = 0; point < count; point++) sums[point] = 0;
        }
}

/* Each type's weight at the batch's points in each lane, times the point's sign, modulo the lane's prime
   (`kind_weights[(type * lanes + lane) * width + point]`; 0 at the points past `count`). */
static void batch_kind_weights(uint32_t *kind_weights, const u64 *signs, const long long *point, int count, int width,
                               int lanes, Points points) {
    for (Py_ssize_t type = 0; type < points.types; type++)
        for (int lane = 0; lane < lanes; lane++) {
            i64 p = prime(lane);
            for (int b = 0; b < width; b++) {
                i64 w = b >= count ? 0 : points.weight[points.digit_start[type] + point[b * points.types + type]];
                w = ((w % p) + p) % p;
                kind_weights[(type * lanes + lane) * width + b] = (uint32_t)((u64)w * signs[lane * WIDEST + b] % (u64)p);
            }
        }
}

/* One batch of `through`, in the widest registers asked for that the processor has (512: sixteen points, 256:
   eight, 0: the plain loops' eight). */
static void through_batch(int vectors, const Layings *l, Graph graph, Graph turned, const i64 *weights, int lanes,
                          int count) {
#ifdef VECTORS
    if (vectors == 512) through_batch_avx512(l, graph, turned, weights, lanes);
    else if (vectors == 256) through_batch_avx2(l, graph, turned, weights, lanes);
    else
#endif
    {
        pass(l->forward, lanes, graph, weights, 8);
        pass(l->backward, lanes, turned, weights, 8);
        add_through(l, graph, lanes, count);
        settle(l, lanes, count);
    }
}

/* through(digits, weights, signs, primes, forms, first, sources, edge_forms, reversed_first, reversed_sources,
   reversed_edge_forms, final, edge_groups, group_start, group_layings, kinds, check, every, begin, end, vectors=512)
   -> bytes: for each laying, lane after lane, the residue (a C uint64) of the sum over the points numbered begin
   to end - 1 (a split's chunk, or all of them) and over the edges that make it of the point's sign times F(the edge's source) times its type's weight times B(the edge's target):
   the twin's `laying_totals`. Edge e makes the layings of its group g = `edge_groups[e]` (none where -1):
   `group_layings[group_start[g]]` to `group_layings[group_start[g + 1] - 1]`, laying k of type `kinds[k]` (C
   ints). F is the sweep's values (forward), B the values of the reversed graph (the edges turned round, state s
   numbered final - s: the ways on to the covered board), each kept for every state (no ring to forget them). A
   batch of sixteen points (AVX-512) or eight (AVX2, the plain loops), as `vectors` asks and the processor has. */
static PyObject *through(PyObject *self, PyObject *args) {
    PyObject *digits, *weights, *signs, *primes, *forms, *check, *result = NULL;
    Py_buffer first = {0}, sources = {0}, edge_forms = {0}, rfirst = {0}, rsources = {0}, redge_forms = {0};
    Py_buffer edge_groups = {0}, group_start = {0}, group_layings = {0}, kinds = {0};
    Py_ssize_t final, every, begin, end;
    int lanes, vectors = 512;
    Points points = {0};
    Layings l = {0};
    Graph graph = {0}, turned = {0};
    i64 *batch = NULL;
    long long *point = NULL;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!y*y*y*y*y*y*ny*y*y*y*Onnn|i:through", &PyList_Type, &digits, &PyList_Type,
                          &weights, &PyList_Type, &signs, &PyList_Type, &primes, &PyList_Type, &forms, &first,
                          &sources, &edge_forms, &rfirst, &rsources, &redge_forms, &final, &edge_groups,
                          &group_start, &group_layings, &kinds, &check, &every, &begin, &end, &vectors))
        return NULL;
    if (final < 1 || !graph_fits(&first, &sources, &edge_forms, final) || !graph_fits(&rfirst, &rsources, &redge_forms, final) ||
        (lanes = lanes_of(primes)) < 0 || read_points(&points, digits, weights, signs, forms, lanes) < 0 ||
        !layings_fit(&edge_groups, &group_start, &group_layings, &kinds, ((const int *)first.buf)[final + 1], points.types))
        goto done;
    vectors = widest_vectors(vectors);
    int width = vectors == 512 ? 16 : 8;
    Py_ssize_t count_of = 1;
    for (Py_ssize_t t = 0; t < points.types; t++) count_of *= points.digits[t];
    if (begin < 0 || begin > end || end > count_of) {
        PyErr_SetString(PyExc_ValueError, "through: 0 <= begin <= end <= the points");
        goto done;
    }
    graph = whole(&first, &sources, &edge_forms, final, lanes, width);
    turned = whole(&rfirst, &rsources, &redge_forms, final, lanes, width);
    l = (Layings){lines_of((graph.ring + 1) * lanes * width * sizeof(int32_t)),
                  lines_of((turned.ring + 1) * lanes * width * sizeof(int32_t)), edge_groups.buf, group_start.buf,
                  group_layings.buf, kinds.buf, group_start.len / (Py_ssize_t)sizeof(int32_t) - 1,
                  kinds.len / (Py_ssize_t)sizeof(int32_t), NULL, NULL, NULL};
    l.held = lines_of((l.groups + 1) * lanes * WIDEST * sizeof(u64));
    l.totals = lines_of((l.layings + 1) * lanes * WIDEST / 2 * sizeof(u64));
    uint32_t *kind_weights = lines_of((points.types + 1) * lanes * width * sizeof(uint32_t));
    l.kind_weights = kind_weights;
    batch = lines_of((points.forms + 1) * width * sizeof(i64));
    point = calloc(width * points.types + 1, sizeof(long long));
    u64 point_signs[MOST_LANES * WIDEST];
    if (!graph.from || !turned.from || !l.forward || !l.backward || !l.held || !l.totals || !kind_weights || !batch || !point) {
        PyErr_NoMemory();
        goto done;
    }
    i64 widest = widest_weight(graph), turned_widest = widest_weight(turned);
    if (turned_widest < widest) widest = turned_widest;  /* a state's sources one way, its targets the other */
    for (Py_ssize_t done = 0; done < end - begin; done += width) {
        if (done % every < width && checked_at(check, done) < 0) goto done;
        int count = end - begin - done < width ? (int)(end - begin - done) : width, fits;
        Py_BEGIN_ALLOW_THREADS
        batch_points(point, begin + done, width, points);
        fits = batch_weights(batch, point, count, width, points, widest);
        if (fits) {
            batch_signs(point_signs, lanes, point, count, points);
            batch_kind_weights(kind_weights, point_signs, point, count, width, lanes, points);
            through_batch(vectors, &l, graph, turned, batch, lanes, count);
        }
        Py_END_ALLOW_THREADS
        if (!fits) {
            PyErr_SetString(PyExc_OverflowError, "through: a form's weight times a state's sources passes 2^29");
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < l.layings * lanes; i++) {
        u64 sum = 0;
        for (int part = 0; part < WIDEST / 2; part++) sum += l.totals[i * WIDEST / 2 + part];
        l.totals[i] = sum % (u64)prime((int)(i % lanes));
    }
    result = PyBytes_FromStringAndSize((const char *)l.totals, (Py_ssize_t)(l.layings * lanes * sizeof(u64)));
done:
    PyBuffer_Release(&first); PyBuffer_Release(&sources); PyBuffer_Release(&edge_forms);
    PyBuffer_Release(&rfirst); PyBuffer_Release(&rsources); PyBuffer_Release(&redge_forms);
    PyBuffer_Release(&edge_groups); PyBuffer_Release(&group_start); PyBuffer_Release(&group_layings);
    PyBuffer_Release(&kinds);
    free_points(points);
    free(l.forward); free(l.backward); free(l.held); free(l.totals); free((void *)l.kind_weights);
    free(batch); free(point); free((void *)graph.from); free((void *)turned.from);
    return result;
}

static PyMethodDef methods[] = {
    {"ordered", ordered_graph, METH_VARARGS, "The sweep's graph in the passes' order, for total."},
    {"total", total, METH_VARARGS, "The sum over the points of the signed sweeps, as its residues modulo each prime."},
    {"through", through, METH_VARARGS, "Per laying, the sum of the signed terms of the paths that lay it."},
    {"build", build_sweep_graph, METH_VARARGS, "The sweep's graph, as the Python twin builds it; or the limit it passed."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_inclusion_exclusion",
                                    "The inclusion-exclusion counter's compiled core: its sweeps and their graph's build.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__inclusion_exclusion(void) {
    PyObject *made = PyModule_Create(&module);
    if (made && (PyModule_AddStringConstant(made, "source_digest", SOURCE_DIGEST) < 0 ||
                 PyModule_AddStringConstant(made, "source_files", SOURCE_FILES) < 0 ||
                 PyModule_AddIntConstant(made, "TOO_MANY_LAYINGS", TOO_MANY_LAYINGS) < 0 ||
                 PyModule_AddIntConstant(made, "TOO_MANY_INDICES", TOO_MANY_INDICES) < 0))
        Py_CLEAR(made);
    return made;
}
