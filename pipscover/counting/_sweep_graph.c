/* The build of the sweep's graph (`build_sweep`) in C: a part of pipscover.counting.inclusion_exclusion's
   compiled core, whose module (`_inclusion_exclusion.c`) offers it as `build`.

   inclusion_exclusion.py keeps the Python twin (`build_sweep` with `_lay`, `_pruned`, `_skips_folded`), which
   this follows step by step, so that both give the same graph to the bit: the same states discovered in the
   same order, line by line (cell by cell in the order it is given), the same edges merged per source and
   target, the same states kept (those that reach the covered board), the same steps that lay nothing folded
   away in the same order, the same forms numbered as they first appear. A state is the cells ahead already
   covered and one number per region: the region's (cells left, rule state) pair, numbered by the Python side,
   which gives each region's step as a table (`tables[r][pair * pips + pip]`, -1 where the rule fails); the
   twin keys the same pairs as its `states` and `left` tuples.

   planted 6 x 6's graph (116,011 states, 589,109 edges) takes the twin about 11 s and 450 MB of dicts; this,
   well under a second and a few tens of MB (encodings/counting.md). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>  /* malloc_trim */
#endif

#include "_sweep_graph.h"

#define SKIP (-1)  /* the kind of the step that lays nothing, as in the twin's forms */
enum { BUILT = 0, FAILED = -1 };

typedef struct { int32_t *at; size_t len, cap; } Ints;  /* a growable array of C ints */

static int push(Ints *v, int32_t x) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 64;
        int32_t *at = realloc(v->at, cap * sizeof(int32_t));
        if (!at) return -1;
        v->at = at, v->cap = cap;
    }
    v->at[v->len++] = x;
    return 0;
}

static int fill(Ints *v, size_t len, int32_t x) {  /* grown to `len` items, the new ones x */
    while (v->len < len) if (push(v, x) < 0) return -1;
    return 0;
}

/* A key's hash, over its ints up to the padding (INT32_MIN, which no state and no form holds otherwise). */
static uint64_t mixed(const int32_t *key, size_t width) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < width && key[i] != INT32_MIN; i++) h = (h ^ (uint32_t)key[i]) * 1099511628211ULL;
    h = (h ^ h >> 33) * 0xff51afd7ed558ccdULL;  /* the low bits, which pick the slot, depend on every int */
    return h ^ h >> 33;
}

/* Keys of `width` ints numbered as they are first met (the twin's dict.setdefault(key, len(dict))). */
typedef struct { Ints keys; int32_t *slots; size_t mask, count, width; } Numbering;

static int numbering_init(Numbering *n, size_t width) {
    memset(n, 0, sizeof *n);
    n->width = width, n->mask = 1023;
    n->slots = malloc((n->mask + 1) * sizeof(int32_t));
    if (!n->slots) return -1;
    memset(n->slots, -1, (n->mask + 1) * sizeof(int32_t));
    return 0;
}

static void numbering_free(Numbering *n) { free(n->keys.at); free(n->slots); memset(n, 0, sizeof *n); }

static int grow_slots(Numbering *n) {
    size_t mask = 2 * n->mask + 1;
    int32_t *slots = malloc((mask + 1) * sizeof(int32_t));
    if (!slots) return -1;
    memset(slots, -1, (mask + 1) * sizeof(int32_t));
    for (size_t i = 0; i < n->count; i++) {
        size_t s = mixed(n->keys.at + i * n->width, n->width) & mask;
        while (slots[s] >= 0) s = (s + 1) & mask;
        slots[s] = (int32_t)i;
    }
    free(n->slots);
    n->slots = slots, n->mask = mask;
    return 0;
}

/* The number of `key` (`length` ints, the rest of the width zeros), numbered now if new; -1 out of memory. */
static int32_t number_of(Numbering *n, const int32_t *key, size_t length) {
    size_t width = n->width, s = mixed(key, length) & n->mask;
    for (; n->slots[s] >= 0; s = (s + 1) & n->mask) {
        const int32_t *known = n->keys.at + (size_t)n->slots[s] * width;
        if (memcmp(known, key, length * sizeof(int32_t)) == 0 && (length == width || known[length] == INT32_MIN))
            return n->slots[s];
    }
    for (size_t i = 0; i < width; i++) if (push(&n->keys, i < length ? key[i] : INT32_MIN) < 0) return -1;
    n->slots[s] = (int32_t)n->count++;
    if (2 * n->count > n->mask && grow_slots(n) < 0) return -1;
    return (int32_t)(n->count - 1);
}

/* Forms, each its (kind, times) pairs in ascending kind, padded with INT32_MIN to the widest form; numbered. */
typedef struct { Numbering known; size_t pairs; } Forms;

static int32_t form_of(Forms *forms, const int32_t *pairs, size_t count) {
    return number_of(&forms->known, pairs, 2 * count);
}

static size_t form_pairs(const Forms *forms, int32_t form, const int32_t **pairs) {
    *pairs = forms->known.keys.at + (size_t)form * forms->known.width;
    size_t count = 0;
    while (count < forms->pairs && (*pairs)[2 * count] != INT32_MIN) count++;
    return count;
}

/* The form of two forms' steps taken side by side: their times added kind by kind (a form's weight is linear). */
static int32_t forms_added(Forms *forms, int32_t a, int32_t b, int32_t *scratch) {
    const int32_t *x, *y;
    size_t nx = form_pairs(forms, a, &x), ny = form_pairs(forms, b, &y), i = 0, j = 0, n = 0;
    while (i < nx || j < ny) {
        if (j == ny || (i < nx && x[2 * i] < y[2 * j])) scratch[2 * n] = x[2 * i], scratch[2 * n + 1] = x[2 * i + 1], i++;
        else if (i == nx || y[2 * j] < x[2 * i]) scratch[2 * n] = y[2 * j], scratch[2 * n + 1] = y[2 * j + 1], j++;
        else scratch[2 * n] = x[2 * i], scratch[2 * n + 1] = x[2 * i + 1] + y[2 * j + 1], i++, j++;
        n++;
    }
    return form_of(forms, scratch, n);
}

/* What the Python side gives: the board, the regions' step tables, the dominoes' layings. */
typedef struct {
    Py_ssize_t cells, regions, pips, kinds;
    long long *region_of, *later_start, *later, *partners;
    Py_ssize_t partner_length, words;  /* the words of a key that hold the cells ahead */
    long long **tables;
    PyObject *check;
    long long every, layings_limit, index_limit;
    int keys;  /* whether the kept states' keys are given too (a sample's decoding reads them) */
} Board;

/* The edges between two lines: source, target (each numbered in its line) and form. */
typedef struct { Ints source, target, form; } Edges;

/* The edges out of one source, merged per target: the targets in the order met, each with its kinds' times. */
typedef struct { Ints targets; int32_t *times; size_t cap; Ints slot_of; Ints seen_by; } Out;

/* `source` is the source's serial number over all the lines (a target's number is met again line after line). */
static int out_add(Out *out, int32_t target, int32_t kind, Py_ssize_t kinds, int32_t source) {
    if (fill(&out->slot_of, (size_t)target + 1, -1) < 0 || fill(&out->seen_by, (size_t)target + 1, -1) < 0) return -1;
    if (out->seen_by.at[target] != source) {
        if (out->targets.len == out->cap) {
            size_t cap = out->cap ? 2 * out->cap : 64;
            int32_t *times = realloc(out->times, cap * (kinds + 1) * sizeof(int32_t));
            if (!times) return -1;
            out->times = times, out->cap = cap;
        }
        memset(out->times + out->targets.len * (kinds + 1), 0, (kinds + 1) * sizeof(int32_t));
        out->seen_by.at[target] = source, out->slot_of.at[target] = (int32_t)out->targets.len;
        if (push(&out->targets, target) < 0) return -1;
    }
    out->times[(size_t)out->slot_of.at[target] * (kinds + 1) + (kind + 1)]++;  /* index 0: the skip */
    return 0;
}

static int out_flush(Out *out, Forms *forms, Edges *edges, int32_t source, Py_ssize_t kinds, int32_t *pairs) {
    for (size_t i = 0; i < out->targets.len; i++) {
        size_t n = 0;
        for (Py_ssize_t k = 0; k <= kinds; k++)
            if (out->times[i * (kinds + 1) + k]) pairs[2 * n] = (int32_t)k - 1, pairs[2 * n + 1] = out->times[i * (kinds + 1) + k], n++;
        int32_t form = form_of(forms, pairs, n);
        if (form < 0 || push(&edges->source, source) < 0 || push(&edges->target, out->targets.at[i]) < 0 ||
            push(&edges->form, form) < 0) return -1;
    }
    out->targets.len = 0;
    return 0;
}

/* `check(upcoming)`: the clock and the memory cap, with `upcoming` bytes about to be allocated; -1 when it raised. */
static int checked(PyObject *check, long long upcoming) {
    PyObject *result = PyObject_CallFunction(check, "L", upcoming);
    if (!result) return -1;
    Py_DECREF(result);
    return 0;
}

/* The cells ahead already covered, bit i for the cell i ahead of the next one: AHEAD_BITS to a word of the key
   (a board's line may be longer than a word: the one-in-three reductions' reach 83 cells ahead). */
#define AHEAD_BITS 30

static int covered(const int32_t *key, long long i) { return key[i / AHEAD_BITS] >> (i % AHEAD_BITS) & 1; }

static void moved_on(int32_t *key, Py_ssize_t words) {  /* the next cell's: every bit one lower */
    for (Py_ssize_t w = 0; w < words; w++)
        key[w] = key[w] >> 1 | (w + 1 < words ? (key[w + 1] & 1) << (AHEAD_BITS - 1) : 0);
}

/* One line: the states after cell `cell` (into `next`) and the edges into them, as the twin's `build_sweep`
   loop and `_lay`. A key is the words of the cells ahead, then each region's pair. */
static int line(const Board *b, Py_ssize_t cell, Numbering *now, Numbering *next, Edges *edges, Forms *forms,
                Out *out, long long *built, long long *laid, int32_t *key, int32_t *pairs) {
    size_t width = now->width;
    int32_t skip_pair[2] = {SKIP, 1}, skip = form_of(forms, skip_pair, 1), *states = key + b->words;
    if (skip < 0) return FAILED;
    for (size_t source = 0; source < now->count; source++) {
        if (++*built % b->every == 0 && checked(b->check, 0) < 0) return FAILED;
        const int32_t *known = now->keys.at + source * width;
        memcpy(key, known, width * sizeof(int32_t));
        if (covered(key, 0)) {
            moved_on(key, b->words);
            int32_t target = number_of(next, key, width);
            if (target < 0 || push(&edges->source, (int32_t)source) < 0 || push(&edges->target, target) < 0 ||
                push(&edges->form, skip) < 0) return FAILED;
            continue;
        }
        long long region = b->region_of[cell];
        for (long long i = b->later_start[cell]; i < b->later_start[cell + 1]; i++) {
            long long offset = b->later[i], other = b->region_of[cell + offset];
            if (covered(known, offset)) continue;
            memcpy(key, known, b->words * sizeof(int32_t));
            key[offset / AHEAD_BITS] |= 1 << (offset % AHEAD_BITS);
            moved_on(key, b->words);
            int32_t own = states[region], theirs = states[other];
            for (long long p = 0; p < b->partner_length;) {
                long long a = b->partners[p], seconds = b->partners[p + 1];
                const long long *pair = b->partners + p + 2;
                p += 2 + 2 * seconds;
                long long first = b->tables[region][own * b->pips + a];
                if (first < 0) continue;
                states[region] = (int32_t)first;
                long long prior = states[other];
                for (long long s = 0; s < seconds; s++) {
                    long long second = b->tables[other][prior * b->pips + pair[2 * s]];
                    if (second < 0) continue;
                    states[other] = (int32_t)second;
                    int32_t target = number_of(next, key, width);
                    if (target < 0 || out_add(out, target, (int32_t)pair[2 * s + 1], b->kinds, (int32_t)*built) < 0)
                        return FAILED;
                    ++*laid;
                }
                states[region] = own, states[other] = theirs;
            }
        }
        if (out_flush(out, forms, edges, (int32_t)source, b->kinds, pairs) < 0) return FAILED;
        if (*laid > b->layings_limit) return TOO_MANY_LAYINGS;
    }
    return BUILT;
}

/* The twin's `_skips_folded` over the kept states' incoming edges (`start`, `from`, `by`): each state's edges
   after the folding into `kept_from` and `kept_by` (state s's at `kept_start[s]`, `kept_count[s]` of them), and
   which states went. A state's edges are worked on as the twin's dict: in order, a source folded away deleted,
   the sources it brings appended or, where already there, their forms added. */
static int folded_skips(Forms *forms, size_t states, const int32_t *start, const int32_t *from, const int32_t *by,
                        int32_t skip, Ints *kept_from, Ints *kept_by, int32_t *kept_start, int32_t *kept_count,
                        uint8_t *folded, int32_t *pairs) {
    int32_t *leaving = calloc(states + 1, sizeof(int32_t)), *stamp = malloc((states + 1) * sizeof(int32_t));
    int32_t *at = malloc((states + 1) * sizeof(int32_t));
    Ints edge_from = {0}, edge_by = {0}, gone = {0}, chosen = {0};
    int failed = -1;
    if (!leaving || !stamp || !at) goto done;
    for (size_t e = 0; e < (size_t)start[states]; e++) leaving[from[e]]++;
    memset(stamp, -1, (states + 1) * sizeof(int32_t));
    for (size_t state = 0; state < states; state++) {
        edge_from.len = edge_by.len = gone.len = chosen.len = 0;
        for (int32_t e = start[state]; e < start[state + 1]; e++) {
            stamp[from[e]] = (int32_t)state, at[from[e]] = (int32_t)edge_from.len;
            if (push(&edge_from, from[e]) < 0 || push(&edge_by, by[e]) < 0 || push(&gone, 0) < 0) goto done;
            if (by[e] == skip && leaving[from[e]] == 1 && kept_count[from[e]] > 0 && push(&chosen, from[e]) < 0) goto done;
        }
        for (size_t c = 0; c < chosen.len; c++) {
            int32_t went = chosen.at[c];
            gone.at[at[went]] = 1, stamp[went] = -1;
            for (int32_t e = kept_start[went]; e < kept_start[went] + kept_count[went]; e++) {
                int32_t source = kept_from->at[e], form = kept_by->at[e];
                if (stamp[source] == (int32_t)state) {
                    int32_t added = forms_added(forms, edge_by.at[at[source]], form, pairs);
                    if (added < 0) goto done;
                    edge_by.at[at[source]] = added;
                    continue;
                }
                stamp[source] = (int32_t)state, at[source] = (int32_t)edge_from.len;
                if (push(&edge_from, source) < 0 || push(&edge_by, form) < 0 || push(&gone, 0) < 0) goto done;
            }
            folded[went] = 1;
        }
        kept_start[state] = (int32_t)kept_from->len, kept_count[state] = 0;
        for (size_t i = 0; i < edge_from.len; i++) {
            if (gone.at[i]) continue;
            if (push(kept_from, edge_from.at[i]) < 0 || push(kept_by, edge_by.at[i]) < 0) goto done;
            kept_count[state]++;
        }
    }
    failed = 0;
done:
    free(leaving); free(stamp); free(at); free(edge_from.at); free(edge_by.at); free(gone.at); free(chosen.at);
    return failed;
}

static PyObject *bytes_of(const Ints *v) {  /* NULL, an error set, is what Py_BuildValue's N passes on */
    return PyBytes_FromStringAndSize(v->len ? (const char *)v->at : "", (Py_ssize_t)(v->len * sizeof(int32_t)));
}

/* The twin's `_pruned`: the states that reach the covered board numbered in sweep order, their incoming edges
   (each state's sources in the order of their numbers), the skips folded; the graph as the Python side's
   `Sweep` holds it: (forms, first, sources, edge_forms, final), the arrays as bytes of C ints, and the
   layings the build met (`laid`), by which `build_sweep` bounds its next order's build. With `keys` (each
   line's keys, `width` ints a state), each kept state's line and key follow, as bytes of C ints. */
static PyObject *pruned(Py_ssize_t cells, Edges *edges, const size_t *counts, Forms *forms, int32_t *pairs,
                        long long laid, const Ints *keys, size_t width) {
    PyObject *result = NULL;
    int32_t **number = calloc(cells + 1, sizeof(int32_t *));
    int32_t skip_pair[2] = {SKIP, 1}, skip = form_of(forms, skip_pair, 1), *start = NULL, *from = NULL, *by = NULL;
    int32_t *kept_start = NULL, *kept_count = NULL, *renumber = NULL;
    uint8_t *folded = NULL;
    Ints kept_from = {0}, kept_by = {0}, first = {0}, sources = {0}, edge_forms = {0}, form_number = {0}, shown = {0};
    Ints kept_keys = {0};
    size_t states = 0;
    if (!number || skip < 0) goto memory;
    for (Py_ssize_t d = cells; d >= 0; d--) {
        if (!(number[d] = malloc((counts[d] + 1) * sizeof(int32_t)))) goto memory;
        for (size_t s = 0; s < counts[d]; s++) number[d][s] = d == cells ? 0 : -1;
        if (d == cells) continue;
        for (size_t e = 0; e < edges[d].source.len; e++)
            if (number[d + 1][edges[d].target.at[e]] >= 0) number[d][edges[d].source.at[e]] = 0;
    }
    int any_start = counts[0] > 0 && number[0][0] >= 0;
    for (Py_ssize_t d = 0; d <= cells; d++)
        for (size_t s = 0; s < counts[d]; s++) if (number[d][s] >= 0) number[d][s] = (int32_t)states++;
    if (!(start = calloc(states + 2, sizeof(int32_t)))) goto memory;
    for (Py_ssize_t d = 0; d < cells; d++)
        for (size_t e = 0; e < edges[d].source.len; e++) {
            int32_t source = number[d][edges[d].source.at[e]], target = number[d + 1][edges[d].target.at[e]];
            if (source >= 0 && target >= 0) start[target + 2]++;
        }
    for (size_t s = 0; s < states; s++) start[s + 2] += start[s + 1];
    if (!(from = malloc((start[states + 1] + 1) * sizeof(int32_t))) || !(by = malloc((start[states + 1] + 1) * sizeof(int32_t))))
        goto memory;
    for (Py_ssize_t d = 0; d < cells; d++)  /* each state's sources in order: the edges are in their sources' order */
        for (size_t e = 0; e < edges[d].source.len; e++) {
            int32_t source = number[d][edges[d].source.at[e]], target = number[d + 1][edges[d].target.at[e]];
            if (source < 0 || target < 0) continue;
            from[start[target + 1]] = source, by[start[target + 1]++] = edges[d].form.at[e];
        }
    if (!(kept_start = calloc(states + 1, sizeof(int32_t))) || !(kept_count = calloc(states + 1, sizeof(int32_t))) ||
        !(folded = calloc(states + 1, 1)) || !(renumber = malloc((states + 1) * sizeof(int32_t))) ||
        folded_skips(forms, states, start, from, by, skip, &kept_from, &kept_by, kept_start, kept_count, folded, pairs) < 0 ||
        fill(&form_number, forms->known.count, -1) < 0 || push(&first, 0) < 0)
        goto memory;
    int32_t kept = 0;
    for (size_t s = 0; s < states; s++) renumber[s] = folded[s] ? -1 : kept++;
    for (size_t s = 0; s < states; s++) {
        if (folded[s]) continue;
        for (int32_t e = kept_start[s]; e < kept_start[s] + kept_count[s]; e++) {
            int32_t form = kept_by.at[e];
            if (form_number.at[form] < 0 && (form_number.at[form] = (int32_t)shown.len, push(&shown, form) < 0)) goto memory;
            if (push(&sources, renumber[kept_from.at[e]]) < 0 || push(&edge_forms, form_number.at[form]) < 0) goto memory;
        }
        if (push(&first, (int32_t)sources.len) < 0) goto memory;
    }
    for (Py_ssize_t d = 0; keys && d <= cells; d++)  /* the kept states in their numbers' order */
        for (size_t s = 0; s < counts[d]; s++) {
            if (number[d][s] < 0 || folded[number[d][s]]) continue;
            if (push(&kept_keys, (int32_t)d) < 0) goto memory;
            for (size_t i = 0; i < width; i++) if (push(&kept_keys, keys[d].at[s * width + i]) < 0) goto memory;
        }
    PyObject *listed = PyTuple_New((Py_ssize_t)shown.len);
    for (size_t f = 0; listed && f < shown.len; f++) {
        const int32_t *pair;
        size_t n = form_pairs(forms, shown.at[f], &pair);
        PyObject *form = PyTuple_New((Py_ssize_t)n);
        for (size_t i = 0; form && i < n; i++) PyTuple_SET_ITEM(form, i, Py_BuildValue("(ii)", pair[2 * i], pair[2 * i + 1]));
        if (!form) Py_CLEAR(listed); else PyTuple_SET_ITEM(listed, f, form);
    }
    Py_ssize_t final = any_start && counts[cells] ? kept - 1 : -1;
    if (listed && keys)
        result = Py_BuildValue("(NNNNnLN)", listed, bytes_of(&first), bytes_of(&sources), bytes_of(&edge_forms), final,
                               laid, bytes_of(&kept_keys));
    else if (listed)
        result = Py_BuildValue("(NNNNnL)", listed, bytes_of(&first), bytes_of(&sources), bytes_of(&edge_forms), final,
                               laid);
    goto done;
memory:
    PyErr_NoMemory();
done:
    for (Py_ssize_t d = 0; number && d <= cells; d++) free(number[d]);
    free(number); free(start); free(from); free(by); free(kept_start); free(kept_count); free(folded); free(renumber);
    free(kept_from.at); free(kept_by.at); free(first.at); free(sources.at); free(edge_forms.at); free(form_number.at);
    free(shown.at); free(kept_keys.at);
    return result;
}

static long long *ints_of(PyObject *list, Py_ssize_t *length) {
    PyObject *seq = PySequence_Fast(list, "a list of ints");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    long long *out = malloc((n + 1) * sizeof(long long));
    for (Py_ssize_t i = 0; out && i < n; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) { free(out); out = NULL; }
    }
    if (!out && !PyErr_Occurred()) PyErr_NoMemory();
    Py_DECREF(seq);
    if (length) *length = n;
    return out;
}

/* What the pruning allocates (`pruned`: the states' numbers and starts, the kept edges' sources and forms, the
   bytes returned) and the Python side copies into its arrays, an edge and a state. */
#define PRUNED_EDGE_BYTES 40
#define PRUNED_STATE_BYTES 32

/* The lines one after another, then the pruning: the graph, or the limit passed (TOO_MANY_LAYINGS, TOO_MANY_INDICES). */
static PyObject *built(Board *b) {
    PyObject *result = NULL;
    Numbering now, next;
    Edges *edges = calloc(b->cells + 1, sizeof(Edges));
    Ints *keys = b->keys ? calloc(b->cells + 1, sizeof(Ints)) : NULL;  /* each line's keys, when asked */
    size_t *counts = calloc(b->cells + 1, sizeof(size_t)), width = (size_t)(b->words + b->regions);
    int32_t *key = calloc(width, sizeof(int32_t)), *pairs = malloc(2 * (b->kinds + 1) * sizeof(int32_t));
    Out out = {0};
    Forms forms = {.pairs = (size_t)b->kinds + 1};
    long long built_states = 0, laid = 0, total_edges = 0, total_states = 1;
    int status = FAILED;
    if (numbering_init(&now, width) < 0 || numbering_init(&next, width) < 0 ||
        numbering_init(&forms.known, 2 * forms.pairs) < 0 || !edges || !counts || !key || !pairs || (b->keys && !keys)) {
        PyErr_NoMemory();
        goto done;
    }
    if (number_of(&now, key, width) < 0) { PyErr_NoMemory(); goto done; }  /* the empty board: every pair numbered 0 */
    counts[0] = 1;
    for (Py_ssize_t cell = 0; cell < b->cells; cell++) {
        status = line(b, cell, &now, &next, &edges[cell], &forms, &out, &built_states, &laid, key, pairs);
        if (status != BUILT) break;
        counts[cell + 1] = next.count, total_states += (long long)next.count, total_edges += (long long)edges[cell].source.len;
        if (keys) keys[cell] = now.keys, now.keys = (Ints){0};
        numbering_free(&now);
        now = next;
        if (numbering_init(&next, width) < 0) { PyErr_NoMemory(); status = FAILED; break; }
    }
    if (status == BUILT && (total_states > b->index_limit || total_edges > b->index_limit)) status = TOO_MANY_INDICES;
    if (status == FAILED && !PyErr_Occurred()) PyErr_NoMemory();
    if (status == BUILT && keys) keys[b->cells] = now.keys, now.keys = (Ints){0};
    /* The pruning and the Python side's arrays then hold about PRUNED_EDGE_BYTES an edge met and
       PRUNED_STATE_BYTES a state (and three copies of a kept key): asked first, so that the cap refuses it
       before it is made (planted 6 x 8's build passed a 200 MiB cap by 130 MiB there). */
    if (status == BUILT &&
        checked(b->check, total_edges * PRUNED_EDGE_BYTES +
                          total_states * (PRUNED_STATE_BYTES + (b->keys ? 12 * (long long)width : 0))) < 0)
        status = FAILED;
    if (status == BUILT) result = pruned(b->cells, edges, counts, &forms, pairs, laid, keys, width);
    else if (status != FAILED) result = PyLong_FromLong(status);
done:
    numbering_free(&now); numbering_free(&next); numbering_free(&forms.known);
    for (Py_ssize_t d = 0; edges && d <= b->cells; d++) { free(edges[d].source.at); free(edges[d].target.at); free(edges[d].form.at); }
    for (Py_ssize_t d = 0; keys && d <= b->cells; d++) free(keys[d].at);
    free(edges); free(keys); free(counts); free(key); free(pairs);
    free(out.targets.at); free(out.times); free(out.slot_of.at); free(out.seen_by.at);
#ifdef __GLIBC__
    /* The lines' numberings and edges, freed, are most of what the build held (planted 6 x 8: 306 MiB resident
       after it, for a graph of about 50 MB): given back, the process's memory, which the caps are checked
       against, is what it holds. */
    malloc_trim(0);
#endif
    return result;
}

/* build(region_of, later, tables, pips, kinds, partners, check, every, layings_limit, index_limit, keys=0): the
   graph of the twin's `build_sweep` as (forms, first, sources, edge_forms, final, layings), and with `keys` its
   kept states' lines and keys (`pruned`), or TOO_MANY_LAYINGS or TOO_MANY_INDICES when it passes a limit. `region_of[cell]` and `later[cell]` (the cells a domino from it
   reaches, as offsets ahead) along the sweep's order; `tables[r]` region r's step table (`pips` entries per
   (cells left, state) pair, pair 0 the empty region); `kinds` the domino types; `partners` the layings, as the
   twin's dict: a first pip, how many second ones, then each second pip and its type; `check(0)` is called
   every `every` states (the clock and the memory cap: it raises to stop), and `check(bytes)` before the
   pruning, with what it is about to allocate. */
PyObject *build_sweep_graph(PyObject *self, PyObject *args) {
    PyObject *region_list, *later_list, *table_list, *partner_list, *result = NULL;
    Board b = {.words = 1};
    if (!PyArg_ParseTuple(args, "O!O!O!nnO!OLLL|p:build", &PyList_Type, &region_list, &PyList_Type, &later_list,
                          &PyList_Type, &table_list, &b.pips, &b.kinds, &PyList_Type, &partner_list, &b.check, &b.every,
                          &b.layings_limit, &b.index_limit, &b.keys))
        return NULL;
    b.cells = PyList_GET_SIZE(region_list), b.regions = PyList_GET_SIZE(table_list);
    if (PyList_GET_SIZE(later_list) != b.cells || b.every < 1) {
        PyErr_SetString(PyExc_ValueError, "build: a list of later cells per cell, and every >= 1");
        return NULL;
    }
    b.later_start = calloc(b.cells + 1, sizeof(long long));
    b.later = calloc(2 * b.cells + 1, sizeof(long long));
    b.tables = calloc(b.regions + 1, sizeof(long long *));
    if (!b.later_start || !b.later || !b.tables) { PyErr_NoMemory(); goto done; }
    if (!(b.region_of = ints_of(region_list, NULL)) || !(b.partners = ints_of(partner_list, &b.partner_length))) goto done;
    for (Py_ssize_t r = 0; r < b.regions; r++)
        if (!(b.tables[r] = ints_of(PyList_GET_ITEM(table_list, r), NULL))) goto done;
    for (Py_ssize_t cell = 0; cell < b.cells; cell++) {
        Py_ssize_t n;
        long long *offsets = ints_of(PyList_GET_ITEM(later_list, cell), &n);
        if (!offsets) goto done;
        int fits = n <= 2 && b.region_of[cell] >= 0 && b.region_of[cell] < b.regions;
        for (Py_ssize_t i = 0; i < n; i++) fits &= offsets[i] > 0 && cell + offsets[i] < b.cells;
        if (!fits) {
            free(offsets);
            PyErr_SetString(PyExc_ValueError, "build: a region per cell, and at most two later cells, on the board");
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) b.later[b.later_start[cell] + i] = offsets[i];
        b.later_start[cell + 1] = b.later_start[cell] + n;
        for (Py_ssize_t i = 0; i < n; i++) if (offsets[i] / AHEAD_BITS + 1 > b.words) b.words = offsets[i] / AHEAD_BITS + 1;
        free(offsets);
    }
    result = built(&b);
done:
    for (Py_ssize_t r = 0; b.tables && r < b.regions; r++) free(b.tables[r]);
    free(b.tables); free(b.later_start); free(b.later); free(b.region_of); free(b.partners);
    return result;
}
