/* The compiled core of pipscover.engines.dancing_links: the same search, step for step, in C.

   The Python module builds the lists (flat arrays of C ints, shared through the buffer protocol, so that
   `sanity()`, the restarts' shuffle and the tests read and write the very memory this core dances on) and
   documents the node layout, the order of the dance, item choice, dom/wdeg, the heap and restarts. This file
   follows that text and Knuth's Algorithm M (TAOCP 7.2.2.1: exact covering with multiplicities, here without
   colours), whose step labels it carries, as the Python search does; the functions of each step:

     M1 initialise                                                   Core_new
     M2 enter a level: a search node; a cover when no item is left   advance, visit
     M3 choose an item (one with no option left ends the level)      scan_choice, heap_choice, dead_end
     M4 prepare to branch on it                                      enter_level
     M5 possibly tweak: hide the option for the later branches       try_option
     M6 try the option: use its other items                          try_option, use_others
     M7 try again: undo it, on to the next option                    retract, next_option
     M8 restore the item                                             leave
     M9 leave the level (at the root, the search ends)               next_option, advance

   Not in Algorithm M, and so without an M-number: the propagator (propagate, unpropagate: the region pruner
   below or a Python object), the failure weights (blame, dead_end: dom/wdeg), randomised restarts (restart,
   unwind) and the limits (check_limits: the deadline, the node budget and Ctrl-C).

   Node counts, covers and their order are those of the Python search: tests/test_dlx.py runs both on the
   same problems. The propagator is either any Python object (choose/unchoose called back) or the region
   pruner below, whose answers come from the Python rules once per state and are then remembered. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define DEADLINE_CHECK_INTERVAL 256
#ifndef SOURCE_DIGEST  /* setup.py gives the SHA-256 of this file: tests/test_dlx.py checks the core is current */
#define SOURCE_DIGEST ""
#endif

/* ---------------------------------------------------------------- growable stacks */

typedef struct { int *v; Py_ssize_t n, cap; } IntStack;

static int grow(IntStack *s) {
    {
        Py_ssize_t cap = s->cap ? 2 * s->cap : 64;
        int *v = PyMem_Realloc(s->v, cap * sizeof(int));
        if (!v) { PyErr_NoMemory(); return -1; }
        s->v = v; s->cap = cap;
    }
    return 0;
}

static inline int push(IntStack *s, int x) {
    if (s->n == s->cap && grow(s) < 0) return -1;
    s->v[s->n++] = x;
    return 0;
}

/* ---------------------------------------------------------------- a table of remembered answers */

/* Open addressing over keys of KEY_WORDS 64-bit words; a value per key. Emptied (not grown) past its limit,
   which changes nothing but the time: every answer is recomputed the same way. */
#define KEY_WORDS 8
typedef struct { uint64_t key[KEY_WORDS]; uint64_t value; int used; } Slot;
typedef struct { Slot *slots; size_t cap, n, limit; } Memo;

static uint64_t mix(const uint64_t *key, int words) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < words; i++) { h ^= key[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); h *= 0xFF51AFD7ED558CCDULL; }
    return h ^ (h >> 33);
}

static int memo_init(Memo *m, size_t limit) {
    m->cap = 1024; m->n = 0; m->limit = limit;
    m->slots = PyMem_Calloc(m->cap, sizeof(Slot));
    if (!m->slots) { PyErr_NoMemory(); return -1; }
    return 0;
}

static Slot *memo_find(Memo *m, const uint64_t *key) {
    size_t i = (mix(key, 3) ^ key[KEY_WORDS - 1]) & (m->cap - 1);  /* the last word hashes the others */
    while (m->slots[i].used && memcmp(m->slots[i].key, key, sizeof(uint64_t) * KEY_WORDS))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static int memo_put(Memo *m, const uint64_t *key, uint64_t value) {
    if (m->n >= m->limit) { memset(m->slots, 0, m->cap * sizeof(Slot)); m->n = 0; }
    if (2 * (m->n + 1) > m->cap) {
        Slot *old = m->slots; size_t old_cap = m->cap;
        m->slots = PyMem_Calloc(2 * old_cap, sizeof(Slot));
        if (!m->slots) { m->slots = old; PyErr_NoMemory(); return -1; }
        m->cap = 2 * old_cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].used) *memo_find(m, old[i].key) = old[i];
        PyMem_Free(old);
    }
    Slot *s = memo_find(m, key);
    if (!s->used) { m->n++; s->used = 1; memcpy(s->key, key, sizeof(uint64_t) * KEY_WORDS); }
    s->value = value;
    return 0;
}

/* ---------------------------------------------------------------- the region pruner (the propagator) */

struct Core;
static int rule_out_all(struct Core *search, const int *options, int count);

/* pipscover.exactcover.pruning.RegionPruner.choose/unchoose over C arrays. A region's allowed pips depend
   only on (region, cells left, sum placed, pips placed, halves not placed), and whether a full region holds
   on (region, sum): both are asked of the Python rules once per state. The halves not placed (a vector of
   counts per pip value) are packed into four words (see read_vector), so a state is eight words. */
typedef struct {
    int regions, values, options, nconstrained;
    int *move;              /* per option: first region, its pip's index, second region, its pip's index */
    long long *pip;         /* per option: the two pips */
    int *constrained, *left, *counts;
    long long *placed_sum;
    uint64_t *placed, *mask;
    int *by_start, *by_option;  /* the options putting pip i on region r: by_option[by_start[r*values+i]...] */
    uint64_t *change_region, *change_old;  /* the undo stack: placed of both regions, then masks changed */
    Py_ssize_t changes, change_cap;
    IntStack marks;
    PyObject *allowed, *completes;  /* per region: allowed(target, left, placed_sum, placed, supply) -> mask, */
    PyObject *targets, *supplier;   /* completes(target, sum); the targets; supply(counts) -> the supply */
    PyObject *supply;               /* the supply of the current counts, once asked for (see pruner_choose) */
    Memo answers;                   /* remembered answers */
    struct Core *search;            /* the search it prunes: rule_out(search, option) hides an option */
    PyObject *vectors;              /* dict: count vector (tuple) -> its number, when they are not packed */
    int packed;                     /* whether the count vectors fit four words */
    uint64_t vector[5];             /* the current one (see read_vector) */
} Pruner;

static void pruner_free(Pruner *p) {
    if (!p) return;
    PyMem_Free(p->move); PyMem_Free(p->pip); PyMem_Free(p->constrained); PyMem_Free(p->left);
    PyMem_Free(p->counts); PyMem_Free(p->placed_sum); PyMem_Free(p->placed); PyMem_Free(p->mask);
    PyMem_Free(p->by_start); PyMem_Free(p->by_option); PyMem_Free(p->change_region); PyMem_Free(p->change_old);
    PyMem_Free(p->marks.v); PyMem_Free(p->answers.slots);
    Py_XDECREF(p->allowed); Py_XDECREF(p->completes); Py_XDECREF(p->vectors);
    Py_XDECREF(p->targets); Py_XDECREF(p->supplier); Py_XDECREF(p->supply);
    PyMem_Free(p);
}

static int *int_array(PyObject *seq, Py_ssize_t *n) {
    PyObject *fast = PySequence_Fast(seq, "a sequence of ints");
    if (!fast) return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    int *out = PyMem_Malloc((*n + 1) * sizeof(int));
    for (Py_ssize_t i = 0; out && i < *n; i++) out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    if (!out) PyErr_NoMemory();
    if (PyErr_Occurred()) { PyMem_Free(out); return NULL; }
    return out;
}

/* The index of `pip` among the `n` increasing pip values (at most 63 of them), or -1. */
static int pip_index(const int *values, int n, long pip) {
    int low = 0, high = n - 1;
    while (low < high) {
        int middle = (low + high) / 2;
        if (values[middle] < pip) low = middle + 1; else high = middle;
    }
    return n && values[low] == pip ? low : -1;
}

/* Two ints of a sequence (an option's first two items, or its pips); 0, or -1 with an exception. */
static int first_two(PyObject *sequence, long *first, long *second) {
    PyObject *fast = PySequence_Fast(sequence, "a sequence of ints");
    if (!fast) return -1;
    int failed = PySequence_Fast_GET_SIZE(fast) < 2;
    if (failed) PyErr_SetString(PyExc_ValueError, "an option covers two cells, a domino puts two pips");
    else {
        *first = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, 0));
        *second = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, 1));
        failed = PyErr_Occurred() != NULL;
    }
    Py_DECREF(fast);
    return failed ? -1 : 0;
}

/* The per-option tables, as RegionPruner.moves and .by_region_pip hold them: each option's regions and pip
   indexes (`move`) and pips (`pip`); and the options putting pip i on a cell of region r, increasing, in
   by_option[by_start[r * values + i] ...] (an option putting the same pip twice in one region listed once). */
static int option_tables(Pruner *p, const int *values, const int *region_of_item, Py_ssize_t cells,
                         PyObject *options, PyObject *pips) {
    PyObject *all_options = PySequence_Fast(options, "options"), *all_pips = NULL;
    int result = -1;
    if (!all_options || !(all_pips = PySequence_Fast(pips, "pips"))) goto out;
    p->options = (int)PySequence_Fast_GET_SIZE(all_options);
    if (PySequence_Fast_GET_SIZE(all_pips) != p->options) {
        PyErr_SetString(PyExc_ValueError, "one pair of pips per option");
        goto out;
    }
    Py_ssize_t buckets = (Py_ssize_t)p->regions * p->values;
    p->move = PyMem_Malloc((4 * (size_t)p->options + 1) * sizeof(int));
    p->pip = PyMem_Malloc((2 * (size_t)p->options + 1) * sizeof(long long));
    p->by_start = PyMem_Calloc(buckets + 1, sizeof(int));
    p->by_option = PyMem_Malloc((2 * (size_t)p->options + 1) * sizeof(int));
    if (!p->move || !p->pip || !p->by_start || !p->by_option) { PyErr_NoMemory(); goto out; }
    for (int o = 0; o < p->options; o++) {
        long first, second, first_pip, second_pip;
        if (first_two(PySequence_Fast_GET_ITEM(all_options, o), &first, &second) < 0 ||
            first_two(PySequence_Fast_GET_ITEM(all_pips, o), &first_pip, &second_pip) < 0)
            goto out;
        int first_index = pip_index(values, p->values, first_pip), second_index = pip_index(values, p->values, second_pip);
        if (first < 0 || first >= cells || second < 0 || second >= cells || first_index < 0 || second_index < 0) {
            PyErr_SetString(PyExc_ValueError, "an option's cell or pip is not the pruner's");
            goto out;
        }
        int *move = p->move + 4 * o;
        move[0] = region_of_item[first]; move[1] = first_index; move[2] = region_of_item[second]; move[3] = second_index;
        p->pip[2 * o] = first_pip; p->pip[2 * o + 1] = second_pip;
        p->by_start[move[0] * p->values + move[1] + 1]++;
        if (move[2] != move[0] || move[3] != move[1]) p->by_start[move[2] * p->values + move[3] + 1]++;
    }
    for (Py_ssize_t b = 0; b < buckets; b++) p->by_start[b + 1] += p->by_start[b];
    int *filled = PyMem_Malloc((buckets + 1) * sizeof(int));
    if (!filled) { PyErr_NoMemory(); goto out; }
    memcpy(filled, p->by_start, (buckets + 1) * sizeof(int));
    for (int o = 0; o < p->options; o++) {
        const int *move = p->move + 4 * o;
        p->by_option[filled[move[0] * p->values + move[1]]++] = o;
        if (move[2] != move[0] || move[3] != move[1]) p->by_option[filled[move[2] * p->values + move[3]]++] = o;
    }
    PyMem_Free(filled);
    result = 0;
out:
    Py_XDECREF(all_options); Py_XDECREF(all_pips);
    return result;
}

/* tables: (regions, values, region_of_item, options, pips, constrained, left, masks, counts, allowed,
            completes, targets, supply) as RegionPruner.compiled_tables() gives them (allowed, completes and
            targets: lists by region). */
static Pruner *pruner_new(PyObject *tables) {
    PyObject *values, *region_of_item, *options, *pips, *constrained, *left, *masks, *counts, *allowed, *completes;
    PyObject *targets, *supplier;
    int regions;
    if (!PyArg_ParseTuple(tables, "iOOOOOOO!OO!O!O!O", &regions, &values, &region_of_item, &options, &pips,
                          &constrained, &left, &PyList_Type, &masks, &counts, &PyList_Type, &allowed,
                          &PyList_Type, &completes, &PyList_Type, &targets, &supplier))
        return NULL;
    if (PyList_GET_SIZE(masks) < regions || PyList_GET_SIZE(allowed) < regions || PyList_GET_SIZE(completes) < regions ||
        PyList_GET_SIZE(targets) < regions) {
        PyErr_SetString(PyExc_ValueError, "a mask, rules and a target per region");
        return NULL;
    }
    Pruner *p = PyMem_Calloc(1, sizeof(Pruner));
    if (!p) { PyErr_NoMemory(); return NULL; }
    p->regions = regions;
    Py_ssize_t n, cells;
    int *value = NULL, *region_of = NULL;
    if (!(value = int_array(values, &n))) goto fail;
    p->values = (int)n;
    if (!(region_of = int_array(region_of_item, &cells))) goto fail;
    for (Py_ssize_t c = 0; c < cells; c++)
        if (region_of[c] < 0 || region_of[c] >= regions) { PyErr_SetString(PyExc_ValueError, "a cell's region"); goto fail; }
    if (option_tables(p, value, region_of, cells, options, pips) < 0) goto fail;
    PyMem_Free(value); value = NULL;
    PyMem_Free(region_of); region_of = NULL;
    if (!(p->constrained = int_array(constrained, &n))) goto fail;
    p->nconstrained = (int)n;
    if (!(p->left = int_array(left, &n)) || !(p->counts = int_array(counts, &n))) goto fail;
    p->placed_sum = PyMem_Calloc(regions + 1, sizeof(long long));
    p->placed = PyMem_Calloc(regions + 1, sizeof(uint64_t));
    p->mask = PyMem_Calloc(regions + 1, sizeof(uint64_t));
    if (!p->placed_sum || !p->placed || !p->mask) { PyErr_NoMemory(); goto fail; }
    for (int r = 0; r < regions; r++) {
        p->mask[r] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(masks, r));
        if (PyErr_Occurred()) goto fail;
    }
    Py_INCREF(allowed); p->allowed = allowed;
    Py_INCREF(completes); p->completes = completes;
    Py_INCREF(targets); p->targets = targets;
    Py_INCREF(supplier); p->supplier = supplier;
    if (!(p->vectors = PyDict_New())) goto fail;
    p->packed = p->values <= 16;
    for (int i = 0; i < p->values; i++) p->packed &= p->counts[i] >= 0 && p->counts[i] < 65536;
    if (memo_init(&p->answers, 1 << 20) < 0) goto fail;
    return p;
fail:
    PyMem_Free(value); PyMem_Free(region_of);
    pruner_free(p);
    return NULL;
}

static int save_change(Pruner *p, uint64_t region, uint64_t old) {
    if (p->changes == p->change_cap) {
        Py_ssize_t cap = p->change_cap ? 2 * p->change_cap : 256;
        uint64_t *r = PyMem_Realloc(p->change_region, cap * sizeof(uint64_t));
        if (r) p->change_region = r;
        uint64_t *o = PyMem_Realloc(p->change_old, cap * sizeof(uint64_t));
        if (o) p->change_old = o;
        if (!r || !o) { PyErr_NoMemory(); return -1; }
        p->change_cap = cap;
    }
    p->change_region[p->changes] = region;
    p->change_old[p->changes++] = old;
    return 0;
}

/* The current count vector as four words of 16-bit counts and their hash; past 16 pip values or 65,535
   halves, as the number given to it in a dict (each vector once) and its hash. */
static int read_vector(Pruner *p) {
    memset(p->vector, 0, sizeof p->vector);
    if (p->packed) {
        for (int i = 0; i < p->values; i++) p->vector[i / 4] |= (uint64_t)p->counts[i] << (16 * (i % 4));
    } else {
        PyObject *vector = PyTuple_New(p->values);
        if (!vector) return -1;
        for (int i = 0; i < p->values; i++) PyTuple_SET_ITEM(vector, i, PyLong_FromLong(p->counts[i]));
        PyObject *number = PyDict_GetItemWithError(p->vectors, vector);
        if (number) Py_INCREF(number);
        else if (!PyErr_Occurred()) {
            if (PyDict_GET_SIZE(p->vectors) >= (1 << 18)) {  /* a fresh numbering forgets the answers too */
                PyDict_Clear(p->vectors);
                memset(p->answers.slots, 0, p->answers.cap * sizeof(Slot));
                p->answers.n = 0;
            }
            number = PyLong_FromSsize_t(PyDict_GET_SIZE(p->vectors));
            if (number && PyDict_SetItem(p->vectors, vector, number) < 0) Py_CLEAR(number);
        }
        Py_DECREF(vector);
        if (!number) return -1;
        p->vector[0] = PyLong_AsUnsignedLongLong(number);
        Py_DECREF(number);
        if (PyErr_Occurred()) return -1;
    }
    p->vector[4] = mix(p->vector, 4);
    return 0;
}

/* The supply of the halves not placed (RegionPruner.supply), asked for once per choice that needs it. */
static PyObject *supply_now(Pruner *p) {
    if (p->supply) return p->supply;
    PyObject *counts = PyTuple_New(p->values);
    if (!counts) return NULL;
    for (int i = 0; i < p->values; i++) PyTuple_SET_ITEM(counts, i, PyLong_FromLong(p->counts[i]));
    p->supply = PyObject_CallOneArg(p->supplier, counts);
    Py_DECREF(counts);
    return p->supply;
}

/* The pips one more cell of `region` may take now, from its rule (remembered per state). */
static int allowed_now(Pruner *p, int region, uint64_t *out) {
    uint64_t key[KEY_WORDS] = {((uint64_t)region << 32) | (uint32_t)p->left[region], (uint64_t)p->placed_sum[region],
                               p->placed[region], p->vector[0], p->vector[1], p->vector[2], p->vector[3], p->vector[4]};
    Slot *s = memo_find(&p->answers, key);
    if (s->used) { *out = s->value; return 0; }
    PyObject *supply = supply_now(p);
    if (!supply) return -1;
    PyObject *args[5] = {PyList_GET_ITEM(p->targets, region), PyLong_FromLong(p->left[region]),
                         PyLong_FromLongLong(p->placed_sum[region]),
                         PyLong_FromUnsignedLongLong((unsigned long long)p->placed[region]), supply};
    PyObject *mask = args[1] && args[2] && args[3] ? PyObject_Vectorcall(PyList_GET_ITEM(p->allowed, region), args, 5, NULL) : NULL;
    Py_XDECREF(args[1]); Py_XDECREF(args[2]); Py_XDECREF(args[3]);
    if (!mask) return -1;
    *out = PyLong_AsUnsignedLongLong(mask);
    Py_DECREF(mask);
    if (PyErr_Occurred()) return -1;
    return memo_put(&p->answers, key, *out);
}

/* Whether `region`, full, keeps its rule with its sum (remembered). */
static int completes_now(Pruner *p, int region) {
    uint64_t key[KEY_WORDS] = {(1ULL << 63) | (uint64_t)region, (uint64_t)p->placed_sum[region], 0, 0, 0, 0, 0, 0};
    Slot *s = memo_find(&p->answers, key);
    if (s->used) return (int)s->value;
    PyObject *sum = PyLong_FromLongLong(p->placed_sum[region]);
    if (!sum) return -1;
    PyObject *args[2] = {PyList_GET_ITEM(p->targets, region), sum};
    PyObject *answer = PyObject_Vectorcall(PyList_GET_ITEM(p->completes, region), args, 2, NULL);
    Py_DECREF(sum);
    if (!answer) return -1;
    int holds = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    if (holds < 0 || memo_put(&p->answers, key, (uint64_t)holds) < 0) return -1;
    return holds;
}

static int check_regions(Pruner *p, int option);

/* RegionPruner.choose: 1 with the options ruled out hidden by rule_out, 0 for a veto, -1 on an error. */
static int pruner_choose(Pruner *p, int option) {
    int answer = check_regions(p, option);
    Py_CLEAR(p->supply);  /* the next choice has other halves left */
    return answer;
}

static int check_regions(Pruner *p, int option) {
    int first = p->move[4 * option], first_index = p->move[4 * option + 1];
    int second = p->move[4 * option + 2], second_index = p->move[4 * option + 3];
    p->counts[first_index]--;
    p->counts[second_index]--;
    if (push(&p->marks, (int)p->changes) < 0 || save_change(p, first, p->placed[first]) < 0 ||
        save_change(p, second, p->placed[second]) < 0)
        return -1;
    p->left[first]--; p->placed_sum[first] += p->pip[2 * option]; p->placed[first] |= 1ULL << first_index;
    p->left[second]--; p->placed_sum[second] += p->pip[2 * option + 1]; p->placed[second] |= 1ULL << second_index;
    if (!p->nconstrained) return 1;
    if (read_vector(p) < 0) return -1;
    for (int k = 0; k < p->nconstrained; k++) {
        int region = p->constrained[k];
        if (p->left[region] == 0) {
            if (region == first || region == second) {
                int holds = completes_now(p, region);
                if (holds <= 0) return holds;
            }
            continue;
        }
        uint64_t old = p->mask[region], allowed;
        if (allowed_now(p, region, &allowed) < 0) return -1;
        uint64_t now = old & allowed;
        if (!now) return 0;
        if (now != old) {
            if (save_change(p, region, old) < 0) return -1;
            p->mask[region] = now;
            for (uint64_t lost = old ^ now; lost; lost &= lost - 1) {
                int bit = __builtin_ctzll(lost), at = region * p->values + bit;
                if (rule_out_all(p->search, p->by_option + p->by_start[at], p->by_start[at + 1] - p->by_start[at]) < 0)
                    return -1;
            }
        }
    }
    return 1;
}

static void pruner_unchoose(Pruner *p, int option) {
    int first = p->move[4 * option], first_index = p->move[4 * option + 1];
    int second = p->move[4 * option + 2], second_index = p->move[4 * option + 3];
    Py_ssize_t mark = p->marks.v[--p->marks.n];
    while (p->changes > mark + 2) {
        p->changes--;
        p->mask[p->change_region[p->changes]] = p->change_old[p->changes];
    }
    p->placed[second] = p->change_old[mark + 1];
    p->placed[first] = p->change_old[mark];
    p->changes = mark;
    p->counts[first_index]++; p->counts[second_index]++;
    p->left[first]++; p->placed_sum[first] -= p->pip[2 * option];
    p->left[second]++; p->placed_sum[second] -= p->pip[2 * option + 1];
}

/* ---------------------------------------------------------------- the search */

typedef struct { double key; int rank, item; } Entry;

enum { LEFT, RIGHT, TOP, UP, DOWN, LENGTH, OPTION_OF, NEEDED, GONE, ARRAYS };

typedef struct Core {
    PyObject_HEAD
    PyObject *problem, *propagator, *reshuffle;  /* the ExactCoverProblem; a Python propagator; the shuffle */
    Pruner *pruner;
    Py_buffer buffers[ARRAYS];
    int *left, *right, *top, *up, *down, *length, *option_of, *needed, *gone;
    int *first_node;          /* option o's nodes are first_node[o] .. first_node[o + 1] - 1 */
    int headers, options;
    long long *weight, nodes, found;  /* found: covers found so far */
    IntStack frame_item, frame_node, frame_mark, frame_tried, trail, tried;
    int descend, finished, watched, use_heap;
    double deadline, run_limit, restart_unit; /* run_limit < 0: none */
    long long runs;
    /* the heap (above SCAN_LIMIT items, see the Python module) and what changed since the last choice */
    Entry *heap; Py_ssize_t heap_n, heap_cap;
    int *rank;
    IntStack covered_log, hidden_log, changed_log;
    PyObject *timeout_error, *budget_error;
} Core;

static long long luby(long long index) {
    for (;;) {
        long long power = 1;
        while (power * 2 - 1 < index) power *= 2;
        if (index == power * 2 - 1) return power;
        index -= power - 1;
    }
}

static double monotonic(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The dance itself: cover, uncover, hide an option whole, and bring it back. */

static inline void cover(Core *c, int item) {
    int *up = c->up, *down = c->down, *length = c->length, *top = c->top;
    if (c->use_heap) push(&c->covered_log, item);
    for (int node = down[item]; node != item; node = down[node]) {
        int option = c->option_of[node];
        for (int other = c->first_node[option]; other < c->first_node[option + 1]; other++) {
            if (other == node) continue;
            int above = up[other], below = down[other];
            down[above] = below; up[below] = above;
            length[top[other]]--;
        }
        c->gone[option] = 1;
    }
    int before = c->left[item], after = c->right[item];
    c->right[before] = after; c->left[after] = before;
}

static inline void uncover(Core *c, int item) {
    int *up = c->up, *down = c->down, *length = c->length, *top = c->top;
    if (c->use_heap) push(&c->changed_log, item);
    int before = c->left[item], after = c->right[item];
    c->right[before] = item; c->left[after] = item;
    for (int node = up[item]; node != item; node = up[node]) {
        int option = c->option_of[node];
        for (int other = c->first_node[option]; other < c->first_node[option + 1]; other++) {
            if (other == node) continue;
            down[up[other]] = other; up[down[other]] = other;
            length[top[other]]++;
        }
        c->gone[option] = 0;
    }
}

static inline void hide_whole(Core *c, int option) {
    if (c->use_heap) push(&c->hidden_log, option);
    for (int node = c->first_node[option]; node < c->first_node[option + 1]; node++) {
        int above = c->up[node], below = c->down[node];
        c->down[above] = below; c->up[below] = above;
        c->length[c->top[node]]--;
    }
    c->gone[option] = 1;
}

static inline void unhide_whole(Core *c, int option) {
    for (int node = c->first_node[option]; node < c->first_node[option + 1]; node++) {
        c->down[c->up[node]] = node; c->up[c->down[node]] = node;
        c->length[c->top[node]]++;
    }
    c->gone[option] = 0;
}

/* M6: the option at `node` uses each of its other items once; an item used up is covered. */
static inline void use_others(Core *c, int node) {
    int option = c->option_of[node];
    for (int other = c->first_node[option]; other < c->first_node[option + 1]; other++) {
        if (other == node) continue;
        int item = c->top[other];
        if (--c->needed[item] == 0) cover(c, item);
    }
}

static inline void unuse_others(Core *c, int node) {
    int option = c->option_of[node];
    for (int other = c->first_node[option + 1] - 1; other >= c->first_node[option]; other--) {
        if (other == node) continue;
        int item = c->top[other];
        if (c->needed[item] == 0) uncover(c, item);
        c->needed[item]++;
        if (c->use_heap) push(&c->changed_log, item);
    }
}

/* Propagators (not in Algorithm M): the region pruner in C, or a Python object called back. Both hide the
   options they rule out through rule_out, which skips those already gone and keeps the rest on the trail. */

static int rule_out(Core *c, int option) {
    if (c->gone[option]) return 0;
    hide_whole(c, option);
    return push(&c->trail, option);
}

/* rule_out for each of `options`: most are gone already, so those still in play are picked out first
   without a branch per option (which the processor could not predict). */
static int rule_out_all(Core *c, const int *options, int count) {
    if (c->trail.cap - c->trail.n < count) {
        while (c->trail.cap - c->trail.n < count) if (grow(&c->trail) < 0) return -1;
    }
    int *in_play = c->trail.v + c->trail.n, found = 0;
    for (int j = 0; j < count; j++) {
        in_play[found] = options[j];
        found += !c->gone[options[j]];
    }
    for (int j = 0; j < found; j++) {
        int option = in_play[j];
        if (!c->gone[option]) {  /* an option may be listed twice */
            hide_whole(c, option);
            c->trail.v[c->trail.n++] = option;
        }
    }
    return 0;
}

static int propagate(Core *c, int option) {
    if (c->pruner) return pruner_choose(c->pruner, option);
    PyObject *answer = PyObject_CallMethod(c->propagator, "choose", "i", option);
    if (!answer) return -1;
    if (answer == Py_None) { Py_DECREF(answer); return 0; }
    PyObject *fast = PySequence_Fast(answer, "choose() returns a sequence of options or None");
    Py_DECREF(answer);
    if (!fast) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        long ruled_out = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((ruled_out == -1 && PyErr_Occurred()) || rule_out(c, (int)ruled_out) < 0) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 1;
}

static int unpropagate(Core *c, int option) {
    if (c->pruner) { pruner_unchoose(c->pruner, option); return 0; }
    if (!c->propagator) return 0;
    PyObject *done = PyObject_CallMethod(c->propagator, "unchoose", "i", option);
    Py_XDECREF(done);
    return done ? 0 : -1;
}

/* M7, its undoing: the option of `node`, tried last at the level that branched on `item`, taken back (the
   propagator's hidden options and its record first, then M6 and M5 backwards). */
static int retract(Core *c, int item, int node, int mark, int tried) {
    while (c->trail.n > mark) unhide_whole(c, c->trail.v[--c->trail.n]);
    if ((c->pruner || c->propagator) && unpropagate(c, c->option_of[node]) < 0) return -1;
    unuse_others(c, node);
    if (tried >= 0) {
        c->needed[item]++;
        if (c->use_heap) push(&c->changed_log, item);
    }
    return 0;
}

/* M8: restore `item` once every option of it was tried: uncover it, or bring back the options tried (Knuth's
   untweak). */
static void leave(Core *c, int item, int tried) {
    if (tried >= 0) {
        while (c->tried.n > tried) unhide_whole(c, c->tried.v[--c->tried.n]);
    } else {
        uncover(c, item);
    }
}

static void pop_frame(Core *c) { c->frame_item.n--; c->frame_node.n--; c->frame_mark.n--; c->frame_tried.n--; }

static int push_frame(Core *c, int item, int node, int mark, int tried) {
    return (push(&c->frame_item, item) < 0 || push(&c->frame_node, node) < 0 || push(&c->frame_mark, mark) < 0 ||
            push(&c->frame_tried, tried) < 0) ? -1 : 0;
}

/* The heap of items (see the Python module): an item's key is its count per unit of weight. */

static inline double key_of(Core *c, int item) {
    long long count = (long long)c->length[item] - c->needed[item] + 1;
    return count <= 1 ? 0.0 : (double)count / (double)c->weight[item];
}

static inline int earlier(const Entry *a, const Entry *b) {
    if (a->key != b->key) return a->key < b->key;
    if (a->rank != b->rank) return a->rank < b->rank;
    return a->item < b->item;
}

static void sift_down(Core *c, Py_ssize_t i) {
    Entry *h = c->heap;
    for (;;) {
        Py_ssize_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < c->heap_n && earlier(&h[l], &h[m])) m = l;
        if (r < c->heap_n && earlier(&h[r], &h[m])) m = r;
        if (m == i) return;
        Entry t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

static int heap_push(Core *c, double key, int item) {
    if (c->heap_n == c->heap_cap) {
        Py_ssize_t cap = c->heap_cap ? 2 * c->heap_cap : 1024;
        Entry *h = PyMem_Realloc(c->heap, cap * sizeof(Entry));
        if (!h) { PyErr_NoMemory(); return -1; }
        c->heap = h; c->heap_cap = cap;
    }
    Py_ssize_t i = c->heap_n++;
    c->heap[i] = (Entry){key, c->rank[item], item};
    while (i > 0) {
        Py_ssize_t parent = (i - 1) / 2;
        if (!earlier(&c->heap[i], &c->heap[parent])) break;
        Entry t = c->heap[i]; c->heap[i] = c->heap[parent]; c->heap[parent] = t;
        i = parent;
    }
    return 0;
}

static void rank_items(Core *c) {
    int place = 0;
    for (int item = c->right[0]; item != 0; item = c->right[item]) c->rank[item] = place++;
}

static int fill_heap(Core *c) {
    c->heap_n = 0;
    for (int item = c->right[0]; item != 0; item = c->right[item])
        if (heap_push(c, key_of(c, item), item) < 0) return -1;
    c->covered_log.n = c->hidden_log.n = c->changed_log.n = 0;
    return 0;
}

static inline int refresh(Core *c, int item) {
    return c->right[c->left[item]] == item ? heap_push(c, key_of(c, item), item) : 0;
}

/* M3 from the heap: the item the scan would choose, after bringing the heap up to date. */
static int heap_choice(Core *c) {
    for (Py_ssize_t k = 0; k < c->covered_log.n; k++) {
        int item = c->covered_log.v[k];
        for (int node = c->down[item]; node != item; node = c->down[node]) {
            int option = c->option_of[node];
            for (int other = c->first_node[option]; other < c->first_node[option + 1]; other++)
                if (other != node && refresh(c, c->top[other]) < 0) return -1;
        }
    }
    for (Py_ssize_t k = 0; k < c->hidden_log.n; k++) {
        int option = c->hidden_log.v[k];
        for (int node = c->first_node[option]; node < c->first_node[option + 1]; node++)
            if (refresh(c, c->top[node]) < 0) return -1;
    }
    for (Py_ssize_t k = 0; k < c->changed_log.n; k++)
        if (refresh(c, c->changed_log.v[k]) < 0) return -1;
    c->covered_log.n = c->hidden_log.n = c->changed_log.n = 0;
    if (c->heap_n > 4 * (Py_ssize_t)c->headers && fill_heap(c) < 0) return -1;
    for (;;) {
        int item = c->heap[0].item;
        if (c->right[c->left[item]] != item) {  /* covered since */
            c->heap[0] = c->heap[--c->heap_n];
            sift_down(c, 0);
            continue;
        }
        double now = key_of(c, item);
        if (now == c->heap[0].key) return item;
        c->heap[0] = (Entry){now, c->rank[item], item};
        sift_down(c, 0);
    }
}

/* M3 by a scan: minimum remaining values (Knuth's branching degree), the first count of 0 or 1 at once, else
   the smallest count per unit of weight (dom/wdeg, not in Algorithm M), compared without division. */
static int scan_choice(Core *c) {
    int best = 0, item;
    long long best_count = -1, best_weight = 1;
    for (item = c->right[0]; item != 0; item = c->right[item]) {
        long long count = (long long)c->length[item] - c->needed[item] + 1;
        if (count <= 1) return item;
        if (best_count < 0 || count * best_weight < best_count * c->weight[item]) {
            best = item; best_count = count; best_weight = c->weight[item];
        }
    }
    return best;
}

/* One more failure for `item`: M3 turns to it sooner (dom/wdeg, not in Algorithm M). */
static void blame(Core *c, int item) {
    c->weight[item]++;
    if (c->use_heap) push(&c->changed_log, item);
}

/* Back to the root, undoing every level in the order backtracking would. */
static int unwind(Core *c) {
    while (c->frame_item.n) {
        Py_ssize_t top = c->frame_item.n - 1;
        int item = c->frame_item.v[top], node = c->frame_node.v[top];
        int mark = c->frame_mark.v[top], tried = c->frame_tried.v[top];
        pop_frame(c);
        if (node != item && retract(c, item, node, mark, tried) < 0) return -1;
        leave(c, item, tried);
    }
    return 0;
}

static PyObject *nodes_name, *found_name, *node_limit_name;  /* "nodes", "found", "node_limit" */

/* Bring the problem's `nodes` and `found` up to date (at every cover handed over, and when the search ends
   or stops), then raise `error` if one is given. */
static int stop_with(Core *c, PyObject *error) {
    PyObject *nodes = PyLong_FromLongLong(c->nodes), *found = PyLong_FromLongLong(c->found);
    int failed = !nodes || !found || PyObject_SetAttr(c->problem, nodes_name, nodes) < 0 ||
                 PyObject_SetAttr(c->problem, found_name, found) < 0;
    Py_XDECREF(nodes); Py_XDECREF(found);
    if (failed) return -1;
    if (error) PyErr_SetNone(error);
    return error ? -1 : 0;
}

/* The limits (not in Algorithm M): the clock, the node budget (which may be lifted while the search runs)
   and Ctrl-C. */
static int check_limits(Core *c) {
    if (PyErr_CheckSignals() < 0) { stop_with(c, NULL); return -1; }
    if (!c->watched) return 0;
    /* past the deadline as pipscover.runtime.deadlines.has_passed says: at it or after */
    if (c->deadline == c->deadline && monotonic() >= c->deadline) return stop_with(c, c->timeout_error);
    PyObject *limit = PyObject_GetAttr(c->problem, node_limit_name);
    if (!limit) return -1;
    int over = 0;
    if (limit != Py_None) {
        long long most = PyLong_AsLongLong(limit);
        if (most == -1 && PyErr_Occurred()) { Py_DECREF(limit); return -1; }
        over = c->nodes > most;
    }
    Py_DECREF(limit);
    return over ? stop_with(c, c->budget_error) : 0;
}

/* A randomised restart (not in Algorithm M): after a run's budget, back to the root and a new random order
   (drawn by the Python module). */
static int restart(Core *c) {
    if (unwind(c) < 0) return -1;
    PyObject *done = PyObject_CallNoArgs(c->reshuffle);
    if (!done) return -1;
    Py_DECREF(done);
    if (c->use_heap) { rank_items(c); if (fill_heap(c) < 0) return -1; }
    c->runs++;
    c->run_limit = (double)c->nodes + (double)luby(c->runs) * c->restart_unit * (double)(c->headers - 1);
    return 0;
}

/* M3 met `item` with no option left (the level ends, M9); and, not in Algorithm M, blame it and the choice
   that led here (dom/wdeg). */
static void dead_end(Core *c, int item) {
    blame(c, item);
    if (c->frame_item.n) blame(c, c->frame_item.v[c->frame_item.n - 1]);
}

/* M4: prepare to branch on `item`, the item M3 chose: cover it when it is needed once more only, or branch
   on its uses when it is needed more than once. With no option left, M3 ends the level instead (dead_end,
   then M9). 0, or -1 on an error. */
static int enter_level(Core *c, int item) {
    if ((long long)c->length[item] - c->needed[item] + 1 <= 0) {
        dead_end(c, item);
        return 0;
    }
    int several = c->needed[item] > 1;
    if (!several) cover(c, item);
    return push_frame(c, item, item, (int)c->trail.n, several ? (int)c->tried.n : -1);
}

/* M5: when `item` is needed more than once, hide the option of `node` for the later branches (Knuth's tweak)
   and count one use of `item`; M6: use the option's other items. Then, not in Algorithm M, ask the
   propagator, whose veto blames `item`. 1 when the option holds (the search then enters M2), 0 when it is
   vetoed, -1 on an error. */
static int try_option(Core *c, int item, int node, int tried) {
    int option = c->option_of[node];
    if (tried >= 0) {
        hide_whole(c, option);
        if (push(&c->tried, option) < 0) return -1;
        c->needed[item]--;
    }
    use_others(c, node);
    if (!c->pruner && !c->propagator) return 1;
    int answer = propagate(c, option);
    if (answer == 0) blame(c, item);
    return answer;
}

/* M7 at the deepest level (undo the option tried last, retract) and on to its item's next option (the first
   one, on a level M4 just entered): M5 and M6 on it (try_option); M8 and M9 when none is left. 1 when it
   reached a new search node, 0 when not, -1 on an error. */
static int next_option(Core *c) {
    Py_ssize_t top = c->frame_item.n - 1;
    int item = c->frame_item.v[top], node = c->frame_node.v[top];
    int mark = c->frame_mark.v[top], tried = c->frame_tried.v[top];
    if (node != item && retract(c, item, node, mark, tried) < 0) return -1;
    node = c->frame_node.v[top] = c->down[node];
    if (node == item) {
        leave(c, item, tried);
        pop_frame(c);
        return 0;
    }
    return try_option(c, item, node, tried);
}

/* M2's visit: a cover, counted, and handed over as the list of its options in the order chosen (*chosen, when
   chosen is not NULL). 1, or -1 on an error. */
static int visit(Core *c, PyObject **chosen) {
    c->run_limit = -1;  /* this run is now the complete search */
    c->descend = 0;
    c->found++;
    if (!chosen) return 1;
    if (stop_with(c, NULL) < 0 || !(*chosen = PyList_New(c->frame_node.n))) return -1;
    for (Py_ssize_t k = 0; k < c->frame_node.n; k++)
        PyList_SET_ITEM(*chosen, k, PyLong_FromLong(c->option_of[c->frame_node.v[k]]));
    return 1;
}

/* Search on to the next cover: 1 when found (*chosen the list of its options in the order chosen, when
   chosen is not NULL), 0 when the search is done, -1 on an error. The loop is M2 (and M9 at the root) and
   calls the other steps. */
static int advance(Core *c, PyObject **chosen) {
    if (c->finished) return 0;
    for (;;) {
        if (c->descend) {
            c->nodes++;  /* M2: a new search node */
            if (c->run_limit >= 0 && (double)c->nodes > c->run_limit && restart(c) < 0) return -1;
            if (c->nodes % DEADLINE_CHECK_INTERVAL == 1 && check_limits(c) < 0) return -1;
            if (c->right[0] == 0) return visit(c, chosen);  /* M2: no item left, a cover (then M9) */
            int best = c->use_heap ? heap_choice(c) : scan_choice(c);  /* M3 */
            if (best < 0 || enter_level(c, best) < 0) return -1;  /* M4 */
        }
        if (!c->frame_item.n) {  /* M9 at the root: the run searched every branch within its budget */
            c->finished = 1;
            return stop_with(c, NULL);
        }
        int reached = next_option(c);  /* M7, then M5 and M6 (or M8 and M9) */
        if (reached < 0) return -1;
        c->descend = reached;
    }
}

static PyObject *Core_iternext(PyObject *self) {
    PyObject *cover = NULL;
    if (advance((Core *)self, &cover) <= 0) ((Core *)self)->finished = 1;  /* done, stopped or failed */
    return cover;
}

/* skip(most): search on past up to `most` covers without building them; how many it passed (fewer when
   the search ended). For counts that only need the number. */
static PyObject *Core_skip(PyObject *self, PyObject *arg) {
    Core *c = (Core *)self;
    long long most = PyLong_AsLongLong(arg), passed = 0;
    if (most == -1 && PyErr_Occurred()) return NULL;
    while (passed < most) {
        int found = advance(c, NULL);
        if (found < 0) { c->finished = 1; return NULL; }
        if (!found) { c->finished = 1; break; }
        passed++;
    }
    if (stop_with(c, NULL) < 0) return NULL;
    return PyLong_FromLongLong(passed);
}

static PyMethodDef Core_methods[] = {
    {"skip", Core_skip, METH_O, "skip(most): search on past up to `most` covers; how many it passed."},
    {NULL, NULL, 0, NULL},
};

static void Core_dealloc(Core *c) {
    for (int i = 0; i < ARRAYS; i++) if (c->buffers[i].obj) PyBuffer_Release(&c->buffers[i]);
    Py_XDECREF(c->problem); Py_XDECREF(c->propagator); Py_XDECREF(c->reshuffle);
    Py_XDECREF(c->timeout_error); Py_XDECREF(c->budget_error);
    pruner_free(c->pruner);
    PyMem_Free(c->first_node); PyMem_Free(c->weight); PyMem_Free(c->heap); PyMem_Free(c->rank);
    IntStack *stacks[] = {&c->frame_item, &c->frame_node, &c->frame_mark, &c->frame_tried, &c->trail, &c->tried,
                          &c->covered_log, &c->hidden_log, &c->changed_log};
    for (size_t i = 0; i < sizeof stacks / sizeof *stacks; i++) PyMem_Free(stacks[i]->v);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

static PyTypeObject CoreType;

/* M1: Search(problem, arrays, propagator, pruner_tables, deadline, restart_unit, reshuffle, use_heap,
   timeout_error, budget_error). `arrays` are the problem's left, right, top, up, down, length, option_of,
   needed and gone (array('i')); `propagator` is a Python propagator or None; `pruner_tables` the region
   pruner's tables (used instead of `propagator`) or None; `deadline` a time.monotonic() or None;
   `restart_unit` None for no restarts; `reshuffle()` draws a new order in place. */
static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *problem, *arrays, *propagator, *tables, *deadline, *restart_unit, *reshuffle, *timeout_error, *budget_error;
    int use_heap;
    if (!PyArg_ParseTuple(args, "OOOOOOOpOO", &problem, &arrays, &propagator, &tables, &deadline, &restart_unit,
                          &reshuffle, &use_heap, &timeout_error, &budget_error))
        return NULL;
    Core *c = (Core *)type->tp_alloc(type, 0);
    if (!c) return NULL;
    Py_INCREF(problem); c->problem = problem;
    Py_INCREF(reshuffle); c->reshuffle = reshuffle;
    Py_INCREF(timeout_error); c->timeout_error = timeout_error;
    Py_INCREF(budget_error); c->budget_error = budget_error;
    if (PySequence_Size(arrays) != ARRAYS) { PyErr_SetString(PyExc_ValueError, "nine arrays"); goto fail; }
    int **fields[ARRAYS] = {&c->left, &c->right, &c->top, &c->up, &c->down, &c->length, &c->option_of, &c->needed, &c->gone};
    for (int i = 0; i < ARRAYS; i++) {
        PyObject *array = PySequence_GetItem(arrays, i);
        if (!array) goto fail;
        int got = PyObject_GetBuffer(array, &c->buffers[i], PyBUF_WRITABLE | PyBUF_FORMAT);
        Py_DECREF(array);
        if (got < 0) goto fail;
        if (c->buffers[i].itemsize != sizeof(int)) { PyErr_SetString(PyExc_TypeError, "arrays of C ints"); goto fail; }
        *fields[i] = c->buffers[i].buf;
    }
    c->headers = (int)(c->buffers[LEFT].len / sizeof(int));
    Py_ssize_t total = c->buffers[TOP].len / sizeof(int);
    c->options = (int)(c->buffers[GONE].len / sizeof(int));
    c->first_node = PyMem_Malloc((c->options + 1) * sizeof(int));
    c->weight = PyMem_Malloc(c->headers * sizeof(long long));
    c->rank = PyMem_Calloc(c->headers, sizeof(int));
    if (!c->first_node || !c->weight || !c->rank) { PyErr_NoMemory(); goto fail; }
    for (int i = 0; i < c->headers; i++) c->weight[i] = 1;
    /* Nodes are numbered option by option, so an option's nodes are consecutive. */
    int node = c->headers;
    for (int o = 0; o < c->options; o++) {
        c->first_node[o] = node;
        while (node < total && c->option_of[node] == o) node++;
    }
    c->first_node[c->options] = node;
    if (tables != Py_None) {
        if (!(c->pruner = pruner_new(tables))) goto fail;
        c->pruner->search = c;
    } else if (propagator != Py_None) {
        Py_INCREF(propagator); c->propagator = propagator;
    }
    c->deadline = deadline == Py_None ? NAN : PyFloat_AsDouble(deadline);
    c->restart_unit = restart_unit == Py_None ? 0 : PyFloat_AsDouble(restart_unit);
    if (PyErr_Occurred()) goto fail;
    c->run_limit = restart_unit == Py_None ? -1 : c->restart_unit * (double)(c->headers - 1);
    c->runs = 1;
    c->use_heap = use_heap;
    PyObject *limit = PyObject_GetAttrString(problem, "node_limit");
    if (!limit) goto fail;
    c->watched = deadline != Py_None || limit != Py_None;
    Py_DECREF(limit);
    c->descend = 1;
    if (use_heap) { rank_items(c); if (fill_heap(c) < 0) goto fail; }
    return (PyObject *)c;
fail:
    Py_DECREF(c);
    return NULL;
}

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pipscover.engines._dancing_links.Search",
    .tp_doc = "One Dancing Links search over an ExactCoverProblem's arrays: an iterator of covers.",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Core_new,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = Core_iternext,
    .tp_methods = Core_methods,
};

/* ---------------------------------------------------------------- the lists, built (M1's set-up) */

static PyObject *array_type;  /* array.array */

/* A new array('i') holding `n` ints copied from `values`. */
static PyObject *int_array_of(const int *values, Py_ssize_t n) {
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)values, n * (Py_ssize_t)sizeof(int));
    if (!bytes) return NULL;
    PyObject *made = PyObject_CallFunction(array_type, "sO", "i", bytes);
    Py_DECREF(bytes);
    return made;
}

/* links(item_count, options): the lists ExactCoverProblem.__init__ builds in Python (its docstring gives the
   layout), as arrays of C ints: (left, right, top, up, down, length, option_of). Nodes are appended option by
   option, each at the bottom of its item's list, exactly as the Python builder appends them. */
static PyObject *links(PyObject *self, PyObject *args) {
    (void)self;
    int item_count;
    PyObject *options;
    if (!PyArg_ParseTuple(args, "iO", &item_count, &options)) return NULL;
    if (item_count < 0) { PyErr_SetString(PyExc_ValueError, "a negative number of items"); return NULL; }
    PyObject *fast = PySequence_Fast(options, "options: a sequence of sequences of item numbers");
    if (!fast) return NULL;
    Py_ssize_t option_count = PySequence_Fast_GET_SIZE(fast), headers = (Py_ssize_t)item_count + 1, total = headers;
    PyObject **rows = PyMem_Calloc(option_count + 1, sizeof(PyObject *));
    if (!rows) { Py_DECREF(fast); return PyErr_NoMemory(); }
    PyObject *result = NULL;
    int *lists[7] = {NULL};
    for (Py_ssize_t o = 0; o < option_count; o++) {
        if (!(rows[o] = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, o), "an option: a sequence of item numbers")))
            goto done;
        total += PySequence_Fast_GET_SIZE(rows[o]);
    }
    if (total > INT_MAX) { PyErr_SetString(PyExc_OverflowError, "too many nodes for C ints"); goto done; }
    Py_ssize_t sizes[7] = {headers, headers, total, total, total, headers, total};  /* length: per header */
    for (int k = 0; k < 7; k++)
        if (!(lists[k] = PyMem_Malloc(sizes[k] * sizeof(int)))) { PyErr_NoMemory(); goto done; }
    int *left = lists[0], *right = lists[1], *top = lists[2], *up = lists[3], *down = lists[4], *length = lists[5],
        *option_of = lists[6];
    for (Py_ssize_t i = 0; i < headers; i++) {
        left[i] = (int)i - 1; right[i] = (int)i + 1;
        top[i] = up[i] = down[i] = (int)i; length[i] = 0; option_of[i] = -1;
    }
    left[0] = item_count; right[headers - 1] = 0;
    int node = (int)headers;
    for (Py_ssize_t o = 0; o < option_count; o++) {
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(rows[o]); k++, node++) {
            long item = PyLong_AsLong(PySequence_Fast_GET_ITEM(rows[o], k));
            if (item == -1 && PyErr_Occurred()) goto done;
            if (item < 0 || item >= item_count) { PyErr_SetString(PyExc_IndexError, "an item number out of range"); goto done; }
            int header = (int)item + 1;
            top[node] = header; option_of[node] = (int)o;
            up[node] = up[header]; down[node] = header;
            down[up[header]] = node; up[header] = node;
            length[header]++;
        }
    }
    result = PyTuple_New(7);
    for (int k = 0; result && k < 7; k++) {
        PyObject *made = int_array_of(lists[k], sizes[k]);
        if (!made) Py_CLEAR(result);
        else PyTuple_SET_ITEM(result, k, made);
    }
done:
    for (Py_ssize_t o = 0; o < option_count; o++) Py_XDECREF(rows[o]);
    PyMem_Free(rows);
    for (int k = 0; k < 7; k++) PyMem_Free(lists[k]);
    Py_DECREF(fast);
    return result;
}

static PyMethodDef module_functions[] = {
    {"links", links, METH_VARARGS, "links(item_count, options): the problem's lists as arrays of C ints."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dancing_links", "The compiled core of pipscover.engines.dancing_links.", -1,
    module_functions,
};

PyMODINIT_FUNC PyInit__dancing_links(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    nodes_name = PyUnicode_InternFromString("nodes");
    found_name = PyUnicode_InternFromString("found");
    node_limit_name = PyUnicode_InternFromString("node_limit");
    if (!nodes_name || !found_name || !node_limit_name) return NULL;
    PyObject *array_module = PyImport_ImportModule("array");
    if (!array_module) return NULL;
    array_type = PyObject_GetAttrString(array_module, "array");
    Py_DECREF(array_module);
    if (!array_type) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&CoreType) < 0) { Py_DECREF(&CoreType); Py_DECREF(m); return NULL; }
    if (PyModule_AddStringConstant(m, "source_digest", SOURCE_DIGEST) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
