/* The compiled core of pipscover.counting.structural: the same counting search, node for node, in C.

   structural.py documents the search (encodings/counting.md says why it is exact) and keeps its Python twin,
   `StructuralSearch`, which this file follows step by step, each a function of the twin's method's name:
   look_up (the cache key: uncovered cells, dominoes left, region states), close_form (the closed forms),
   allowed_pips (the pruning), choose_cell (forced cells first, then the `ways` or the `sweep` order), branch,
   and cache_put to store; so both count the same and visit the same nodes (tests/test_structural_core.py).

   What stays in Python: the region rules and the closed forms. A region's step, its allowed pips and a
   supply of pips are asked of Python once per distinct question and remembered here (Memo2); a closed form
   is one Python call per closed-form node. Region states are Python ints of any size, interned here as
   32-bit ids (FAIL_ID stands for FAIL); the vector of them and the uncovered cells (a position) are interned
   once more as one id, so a cache key is (position id, dominoes left) in fixed-width words: exact, no
   fingerprint, and one word with the count's for up to 32 dominoes. The positions are few beside the keys
   (524 against 573,072 on no-unique-16), since what multiplies the subproblems is the dominoes left.

   Counts are unsigned __int128 with overflow checks; a sum that overflows goes on as a Python int, and a
   cached count of 2^63 or more is kept in a Python list (BIG_FLAG | its index), so no count is ever wrong.
   On a stop (a Python exception: the deadline, the node budget, the memory cap, Ctrl-C) each level adds
   its finished branches to `partial`, as the twin's levels add them to its CountInterrupted. The cache's
   table grows only within the memory cap (in place on Linux; elsewhere its old and new tables side by side
   while it is filled), else the cache forgets its cheapest counts (cache_forget) and the count goes on; the
   memos and the PipSupply objects are bounded too. A failed allocation stops it with MemoryCapReached:
   never a crash. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

#ifndef SOURCE_DIGEST  /* setup.py gives the SHA-256 of this file: the tests check the core is current */
#define SOURCE_DIGEST ""
#endif

typedef unsigned __int128 u128;
typedef uint64_t u64;
typedef uint32_t u32;

#define FAIL_ID 0xFFFFFFFFu
#define BIG_FLAG (1ULL << 63)
#define MAX_PIPS 64  /* pip masks are one word: structural.py keeps the Python search beyond */
#define SUPPLIES_HELD 4096  /* PipSupply objects held at once (a count meets one per multiset of pips left) */
#define MAX_TRACKED 64  /* the most levels that may report progress (progress.STRUCTURAL_PROGRESS_DEPTH) */

/* Bits set in x: the instruction where the build may use it, else inline arithmetic (gcc's fallback is a call). */
static inline int bit_count(u64 x) {
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static u64 mix64(u64 x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

/* ---------------------------------------------------------------- counts: u128, or a Python int beyond */

/* small + big (big a Python int, or NULL for 0): a sum stays in small until it overflows. */
typedef struct { u128 small; PyObject *big; } Count;

static PyObject *u128_to_long(u128 v) {
    if (v >> 64 == 0) return PyLong_FromUnsignedLongLong((u64)v);
    PyObject *high = PyLong_FromUnsignedLongLong((u64)(v >> 64)), *shift = PyLong_FromLong(64), *low = NULL,
             *shifted = NULL, *result = NULL;
    if (high && shift && (low = PyLong_FromUnsignedLongLong((u64)v)) && (shifted = PyNumber_Lshift(high, shift)))
        result = PyNumber_Or(shifted, low);
    Py_XDECREF(high); Py_XDECREF(shift); Py_XDECREF(low); Py_XDECREF(shifted);
    return result;
}

static PyObject *count_to_long(const Count *c) {
    PyObject *small = u128_to_long(c->small);
    if (!small || !c->big) return small;
    PyObject *sum = PyNumber_Add(c->big, small);
    Py_DECREF(small);
    return sum;
}

/* A Python int (>= 0) as a Count; steals nothing. */
static int count_from_long(PyObject *value, Count *out) {
    out->big = NULL;
    u64 low = PyLong_AsUnsignedLongLong(value);
    if (!(low == (u64)-1 && PyErr_Occurred())) { out->small = low; return 0; }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
    PyErr_Clear();
    out->small = 0;
    Py_INCREF(value);
    out->big = value;
    return 0;
}

static int count_add(Count *total, const Count *more) {
    u128 sum;
    if (__builtin_add_overflow(total->small, more->small, &sum)) {  /* fold the small part into the big one */
        PyObject *small = u128_to_long(total->small), *big;
        if (!small) return -1;
        big = total->big ? PyNumber_Add(total->big, small) : (Py_INCREF(small), small);
        Py_DECREF(small);
        if (!big) return -1;
        Py_XDECREF(total->big);
        total->big = big;
        sum = more->small;
    }
    total->small = sum;
    if (more->big) {
        PyObject *big = total->big ? PyNumber_Add(total->big, more->big) : (Py_INCREF(more->big), more->big);
        if (!big) return -1;
        Py_XDECREF(total->big);
        total->big = big;
    }
    return 0;
}

static void count_clear(Count *c) { Py_CLEAR(c->big); c->small = 0; }

/* ---------------------------------------------------------------- tables */

/* Memo2: open addressing over two-word keys (the first never 0: 0 marks an empty slot) and a value word. */
typedef struct { u64 *slots; size_t cap, n; } Memo2;

static u64 *memo2_find(Memo2 *m, u64 k1, u64 k2) {
    size_t i = mix64(k1 * 0x9E3779B97F4A7C15ULL ^ k2) & (m->cap - 1);
    while (m->slots[3 * i] && (m->slots[3 * i] != k1 || m->slots[3 * i + 1] != k2)) i = (i + 1) & (m->cap - 1);
    return m->slots + 3 * i;
}

static int memo2_grow(Memo2 *m) {
    size_t cap = m->cap ? 2 * m->cap : 1024;
    u64 *old = m->slots, *slots = calloc(3 * cap, sizeof(u64));
    size_t old_cap = m->cap;
    if (!slots) return -1;
    m->slots = slots; m->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[3 * i]) memcpy(memo2_find(m, old[3 * i], old[3 * i + 1]), old + 3 * i, 3 * sizeof(u64));
    free(old);
    return 0;
}

/* VecSet: interns vectors of `width` u32 as ids 0, 1, ...; the caller keeps each vector's hash up to date. */
typedef struct { u32 *vectors; u64 *hashes; size_t n, room; u32 *index; size_t cap; int width; } VecSet;

static int vecset_grow_index(VecSet *v) {
    size_t cap = v->cap ? 2 * v->cap : 1024;
    u32 *index = calloc(cap, sizeof(u32));
    if (!index) return -1;
    for (size_t id = 0; id < v->n; id++) {
        size_t i = v->hashes[id] & (cap - 1);
        while (index[i]) i = (i + 1) & (cap - 1);
        index[i] = (u32)id + 1;
    }
    free(v->index);
    v->index = index; v->cap = cap;
    return 0;
}

/* The id of `vector` (hash `hash`), added when new; -1 when out of memory. */
static long long vecset_intern(VecSet *v, const u32 *vector, u64 hash) {
    size_t bytes = (size_t)v->width * sizeof(u32);
    if (v->cap) {
        size_t i = hash & (v->cap - 1);
        for (; v->index[i]; i = (i + 1) & (v->cap - 1)) {
            u32 id = v->index[i] - 1;
            if (v->hashes[id] == hash && !memcmp(v->vectors + (size_t)id * v->width, vector, bytes)) return id;
        }
    }
    if (4 * (v->n + 1) > 3 * v->cap && vecset_grow_index(v) < 0) return -1;
    if (v->n == v->room) {
        size_t room = v->room ? 2 * v->room : 256;
        u32 *vectors = realloc(v->vectors, room * (bytes ? bytes : 1));
        u64 *hashes = vectors ? realloc(v->hashes, room * sizeof(u64)) : NULL;
        if (vectors) v->vectors = vectors;
        if (!hashes) return -1;
        v->hashes = hashes; v->room = room;
    }
    size_t id = v->n++;
    memcpy(v->vectors + id * v->width, vector, bytes);
    v->hashes[id] = hash;
    size_t i = hash & (v->cap - 1);
    while (v->index[i]) i = (i + 1) & (v->cap - 1);
    v->index[i] = (u32)id + 1;
    return (long long)id;
}

/* Cache: the counts of residual subproblems. A slot is a key of `key_words` words, packed bit by bit: the
   position id + 1 in the low 32 bits of the first word (never 0, so 0 there marks an empty slot), then the
   dominoes left; and a count word (BIG_FLAG: an index into the Python list of big counts). Linear probing
   over any number of slots (a hash's high bits scaled to it), grown at 3/4 full to twice the slots, or to as
   many as the memory cap leaves room for; with no room left, filled to 7/8 before it forgets. */
typedef struct { u64 *slots; size_t cap, n, full; int key_words, at_cap; } Cache;  /* full: entries held before it grows */

/* The cache's table: zeroed memory mapped for it alone, given back to the system when freed. From the heap, a
   freed table could stay resident and be counted against the cap as well as the table that replaced it. */
static u64 *table_alloc(size_t bytes) {
#ifdef _WIN32
    return calloc(1, bytes);
#else
    void *table = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return table == MAP_FAILED ? NULL : table;
#endif
}

static void table_free(u64 *table, size_t bytes) {
#ifdef _WIN32
    free(table);
#else
    if (table) munmap(table, bytes);
#endif
}

static u64 hash_words(const u64 *words, int n) {
    u64 h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n; i++) h = mix64(h ^ words[i]) + 0x632BE59BD9B4E019ULL;
    return h;
}

static int slot_used(const u64 *slot) { return (slot[0] & 0xFFFFFFFFu) != 0; }

static u64 *cache_find(Cache *c, const u64 *key) {
    int kw = c->key_words, sw = kw + 1;
    size_t i = (size_t)(((u128)hash_words(key, kw) * c->cap) >> 64);
    for (;; i = i + 1 == c->cap ? 0 : i + 1) {  /* word by word: a key is one or two words, a memcmp call costs more */
        const u64 *slot = c->slots + i * sw;
        if (!slot_used(slot)) break;
        int k = 0;
        while (k < kw && slot[k] == key[k]) k++;
        if (k == kw) break;
    }
    return c->slots + i * sw;
}

/* Or the `bits` low bits of `words` into `key` from bit `at` on. */
static void pack_bits(u64 *key, int at, const u64 *words, int bits) {
    for (int i = 0; 64 * i < bits; i++) {
        int w = (at + 64 * i) >> 6, shift = (at + 64 * i) & 63;
        key[w] |= words[i] << shift;
        if (shift && 64 * i + 64 - shift < bits) key[w + 1] |= words[i] >> (64 - shift);
    }
}

/* ---------------------------------------------------------------- the counter */

typedef struct {
    PyObject_HEAD
    /* the puzzle */
    int cells, regions, pips, distinct, copies_total, words_cells, words_left, key_words, by_sweep, check_every;
    int *cell_region, *sizes, *neighbours;  /* neighbours: 4 per cell, right, down, left, up; -1 past the last */
    char *free_kind;
    long long *sweep_rank;
    int *domino_a, *domino_b, *copies, *shift, *number;  /* number[a * pips + b]: the distinct domino {a, b} */
    u32 *initial;  /* the regions' initial state ids */
    u64 pip_hash[MAX_PIPS];
    PyObject *steps, *allowed_of, *closed_form, *cell_tables, *supply_of, *check_search, *resident_bytes, *cap_reached;
    /* what is remembered across counts */
    PyObject *state_ids, *state_values, *supplies, *bigs;  /* dict int -> id; list id -> int; list; list */
    u32 decided;
    Memo2 step_memo, allowed_memo;
    VecSet positions, halves_set;  /* positions: the regions' states and the uncovered cells, as one vector */
    Cache cache;
    /* the search's position (reset by each count) */
    u64 *uncovered, *remaining, *keys, *region_pips, partners[MAX_PIPS], present, sigma_hash, uncovered_hash, halves_hash;
    u32 *state, *halves, *position;  /* position: the vector the search interns, made at each node */
    int *left, *copies_left, have_neighbours, max_depth, tracked, supplies_held;
    long long nodes, forgotten;  /* forgotten: cached counts dropped at the memory cap */
    long long start_resident, start_tables;  /* the process's resident bytes and table_bytes when a count began */
    Count partial;
    PyObject *deadline, *memory_cap, *node_limit, *on_progress;
    /* progress.py's Progress, node for node, so that a report is a Python call only when one is due */
    double every, reported, start[MAX_TRACKED + 1], span[MAX_TRACKED + 1];
    long long branches[MAX_TRACKED + 1];
    Count found[MAX_TRACKED + 1];
} Counter;

static int refuse(Counter *s) {  /* an allocation failed: stop as at the memory cap */
    if (!PyErr_Occurred()) PyErr_SetNone(s->cap_reached);
    return -1;
}

static u64 sigma_part(int region, u32 id) { return mix64(((u64)region << 32 | id) + 0x9E3779B97F4A7C15ULL); }

static void set_state(Counter *s, int region, u32 id) {
    s->sigma_hash += sigma_part(region, id) - sigma_part(region, s->state[region]);
    s->state[region] = id;
}

static long long intern_state(Counter *s, PyObject *value) {
    PyObject *known = PyDict_GetItemWithError(s->state_ids, value);
    if (known) return PyLong_AsLongLong(known);
    if (PyErr_Occurred()) return -1;
    Py_ssize_t id = PyList_GET_SIZE(s->state_values);
    PyObject *number = PyLong_FromSsize_t(id);
    int failed = !number || PyDict_SetItem(s->state_ids, value, number) < 0 || PyList_Append(s->state_values, value) < 0;
    Py_XDECREF(number);
    return failed ? -1 : id;
}

static long long held_bytes(Counter *s);

/* Room for one more entry in a memo that is 3/4 full: twice its slots, or, where that would pass the memory
   cap, the memo emptied (it only remembers answers Python gives again). Below a megabyte it grows without a
   look at what the process holds (a read of /proc each time: most counts never pass it). */
static int memo_room(Counter *s, Memo2 *m) {
    if (s->memory_cap != Py_None && 6 * m->cap * sizeof(u64) >= (1 << 20)) {
        long long held = held_bytes(s), cap = PyLong_AsLongLong(s->memory_cap);
        if (held < 0 || PyErr_Occurred()) return -1;
        if (held + (long long)(6 * m->cap * sizeof(u64)) > cap) {
            memset(m->slots, 0, 3 * m->cap * sizeof(u64));
            m->n = 0;
            return 0;
        }
    }
    return memo2_grow(m) < 0 ? refuse(s) : 0;
}

/* steps[region](state, pip, after), remembered: the next state's id, or FAIL_ID. */
static int step(Counter *s, int region, int pip, int after, u32 *out) {
    u64 k1 = ((u64)region + 1) << 32 | s->state[region], k2 = (u64)after << 8 | (u64)pip;
    u64 *slot = memo2_find(&s->step_memo, k1, k2);
    if (*slot) { *out = (u32)slot[2]; return 0; }
    PyObject *next = PyObject_CallFunction(PyList_GET_ITEM(s->steps, region), "Oii",
                                           PyList_GET_ITEM(s->state_values, s->state[region]), pip, after);
    if (!next) return -1;
    long long id = next == Py_None ? FAIL_ID : intern_state(s, next);
    Py_DECREF(next);
    if (id < 0) return -1;
    if (4 * (s->step_memo.n + 1) > 3 * s->step_memo.cap) {
        if (memo_room(s, &s->step_memo) < 0) return -1;
        slot = memo2_find(&s->step_memo, k1, k2);
    }
    slot[0] = k1; slot[1] = k2; slot[2] = (u64)id;
    s->step_memo.n++;
    *out = (u32)id;
    return 0;
}

/* allowed_of[region](state, cells left, supply), remembered by the supply's id (its halves vector). */
static int allowed(Counter *s, int region, long long supply, u64 *out) {
    u64 k1 = ((u64)region + 1) << 32 | s->state[region], k2 = (u64)s->left[region] << 32 | (u64)supply;
    u64 *slot = memo2_find(&s->allowed_memo, k1, k2);
    if (*slot) { *out = slot[2]; return 0; }
    PyObject *pips = PyList_GET_ITEM(s->supplies, supply);
    if (pips == Py_None) {  /* the PipSupply of these halves, made once and held while SUPPLIES_HELD allow */
        if (s->supplies_held == SUPPLIES_HELD) {
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(s->supplies); i++)
                if (PyList_SetItem(s->supplies, i, Py_NewRef(Py_None)) < 0) return -1;
            s->supplies_held = 0;
        }
        PyObject *halves = PyTuple_New(s->pips);
        if (!halves) return -1;
        for (int i = 0; i < s->pips; i++) PyTuple_SET_ITEM(halves, i, PyLong_FromUnsignedLong(s->halves[i]));
        pips = PyObject_CallOneArg(s->supply_of, halves);
        Py_DECREF(halves);
        if (!pips) return -1;
        PyList_SetItem(s->supplies, supply, pips);  /* steals it */
        s->supplies_held++;
    }
    PyObject *mask = PyObject_CallFunction(PyList_GET_ITEM(s->allowed_of, region), "OiO",
                                           PyList_GET_ITEM(s->state_values, s->state[region]), s->left[region], pips);
    if (!mask) return -1;
    *out = PyLong_AsUnsignedLongLong(mask);
    Py_DECREF(mask);
    if (*out == (u64)-1 && PyErr_Occurred()) return -1;
    if (4 * (s->allowed_memo.n + 1) > 3 * s->allowed_memo.cap) {
        if (memo_room(s, &s->allowed_memo) < 0) return -1;
        slot = memo2_find(&s->allowed_memo, k1, k2);
    }
    slot[0] = k1; slot[1] = k2; slot[2] = *out;
    s->allowed_memo.n++;
    return 0;
}

/* The supply id of the halves left (a new one gets its PipSupply only when a region asks for it). */
static long long supply_id(Counter *s) {
    long long id = vecset_intern(&s->halves_set, s->halves, s->halves_hash);
    if (id < 0) return refuse(s);
    if ((size_t)id == (size_t)PyList_GET_SIZE(s->supplies) && PyList_Append(s->supplies, Py_None) < 0) return -1;
    return id;
}

static PyObject *bits_to_long(const u64 *words, int n) {
    unsigned char *bytes = PyMem_Malloc((size_t)n * 8 + 1);
    if (!bytes) return PyErr_NoMemory();
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 8; b++) bytes[8 * i + b] = (unsigned char)(words[i] >> (8 * b));
    PyObject *value = _PyLong_FromByteArray(bytes, (size_t)n * 8, 1, 0);
    PyMem_Free(bytes);
    return value;
}

/* How many cells a cached key leaves uncovered (those of its position). */
static int key_uncovered(const Counter *s, const u64 *key) {
    const u32 *cells = s->positions.vectors + ((key[0] & 0xFFFFFFFFu) - 1) * s->positions.width + s->regions;
    int count = 0;
    for (int i = 0; i < 2 * s->words_cells; i++) count += bit_count(cells[i]);
    return count;
}

/* Bytes of the C tables (cache, memos, interned vectors). */
static size_t table_bytes(const Counter *s) {
    size_t bytes = s->cache.cap * (s->cache.key_words + 1) * sizeof(u64);
    bytes += (s->step_memo.cap + s->allowed_memo.cap) * 3 * sizeof(u64);
    bytes += s->positions.room * (s->positions.width * sizeof(u32) + sizeof(u64)) + s->positions.cap * sizeof(u32);
    bytes += s->halves_set.room * (s->halves_set.width * sizeof(u32) + sizeof(u64)) + s->halves_set.cap * sizeof(u32);
    return bytes;
}

/* What the process holds, for the memory cap: its resident bytes, but never less than it held when the count
   began plus what the tables have grown since. The resident size alone can lag: the allocator may place a new
   table in memory a freed one left resident, so the tables could outgrow the cap unseen. -1 on an exception. */
static long long held_bytes(Counter *s) {
    PyObject *now = PyObject_CallNoArgs(s->resident_bytes);
    long long resident = now ? PyLong_AsLongLong(now) : -1;
    Py_XDECREF(now);
    if (resident < 0) return -1;
    long long grown = s->start_resident + ((long long)table_bytes(s) - s->start_tables);
    return resident > grown ? resident : grown;
}

/* The cache is at the memory cap: rather than stop, forget at least half of its counts, those of the
   subproblems with the fewest cells left (the search counts them again fastest), and go on. The count stays
   exact: the cache only saves counting a subproblem again. The survivors are put back in their probe order,
   from an empty slot on, so that none is left behind a hole. */
static int cache_forget(Counter *s) {
    Cache *c = &s->cache;
    int kw = c->key_words, sw = kw + 1, cells = s->cells, limit = -1;
    size_t *by_cells = calloc((size_t)cells + 1, sizeof(size_t)), forgotten = 0;
    u64 *held = malloc(sw * sizeof(u64));
    if (!by_cells || !held) { free(by_cells); free(held); return refuse(s); }
    for (size_t i = 0; i < c->cap; i++)
        if (slot_used(c->slots + i * sw)) by_cells[key_uncovered(s, c->slots + i * sw)]++;
    while (2 * forgotten < c->n && limit < cells) forgotten += by_cells[++limit];
    free(by_cells);
    for (size_t i = 0; i < c->cap; i++) {
        u64 *slot = c->slots + i * sw;
        if (slot_used(slot) && key_uncovered(s, slot) <= limit) memset(slot, 0, sw * sizeof(u64));
    }
    c->n -= forgotten;
    size_t empty = 0;
    while (slot_used(c->slots + empty * sw)) empty++;
    for (size_t k = 1; k <= c->cap; k++) {
        u64 *slot = c->slots + ((empty + k) % c->cap) * sw;
        if (!slot_used(slot)) continue;
        memcpy(held, slot, sw * sizeof(u64));
        memset(slot, 0, sw * sizeof(u64));
        memcpy(cache_find(c, held), held, sw * sizeof(u64));
    }
    free(held);
    s->forgotten += forgotten;
    return 0;
}

#ifdef MREMAP_MAYMOVE
/* The table's mapping made `cap` slots long, its entries rehashed where they are: each entry not yet moved
   is taken out and put at the first slot from its new home that no moved entry holds, and an entry not yet
   moved found there goes next. This is inserting every entry into an empty table, one after another, so the
   probe order holds; `moved` marks the slots filled so far. Linux's mremap grows the mapping without
   copying it, so the table never needs its old and new selves side by side. */
static int cache_grow_in_place(Cache *c, size_t cap) {
    int kw = c->key_words, sw = kw + 1;
    size_t slot_bytes = sw * sizeof(u64), old_cap = c->cap;
    u64 *moved = calloc((cap + 63) / 64, sizeof(u64)), carried[sw], evicted[sw];
    if (!moved) return -1;
    void *slots = mremap(c->slots, old_cap * slot_bytes, cap * slot_bytes, MREMAP_MAYMOVE);
    if (slots == MAP_FAILED) { free(moved); return -1; }
    c->slots = slots; c->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        u64 *slot = c->slots + i * sw;
        if (!slot_used(slot) || moved[i >> 6] >> (i & 63) & 1) continue;
        memcpy(carried, slot, slot_bytes);
        memset(slot, 0, slot_bytes);
        for (;;) {
            size_t j = (size_t)(((u128)hash_words(carried, kw) * cap) >> 64);
            while (moved[j >> 6] >> (j & 63) & 1) if (++j == cap) j = 0;
            u64 *home = c->slots + j * sw;
            moved[j >> 6] |= 1ULL << (j & 63);
            int taken = slot_used(home);
            if (taken) memcpy(evicted, home, slot_bytes);
            memcpy(home, carried, slot_bytes);
            if (!taken) break;
            memcpy(carried, evicted, slot_bytes);
        }
    }
    free(moved);
    return 0;
}
#define GROWS_IN_PLACE 1
#else
#define GROWS_IN_PLACE 0
#endif

/* The cache's table made about twice as large, or as large as the memory cap leaves room for (a new table
   beside the old one while it is filled, where the table cannot grow in place); when that is too little,
   the cache forgets instead. */
static int cache_grow(Counter *s) {
    Cache *c = &s->cache;
    int sw = c->key_words + 1;
    size_t cap = 2 * c->cap, slot_bytes = sw * sizeof(u64), kept = GROWS_IN_PLACE ? c->cap : 0;
    if (s->memory_cap != Py_None) {
        long long held = held_bytes(s), room = PyLong_AsLongLong(s->memory_cap) - held;
        if (held < 0 || PyErr_Occurred()) return -1;
        room -= room / 4;  /* a quarter of what the cap leaves is for the rest: memos, supplies, Python */
        if (room < (long long)((cap - kept) * slot_bytes)) cap = room > 0 ? kept + (size_t)room / slot_bytes : kept;
        if (cap < c->cap + c->cap / 4) {  /* no room to grow: fill to 7/8 (longer probes), then forget */
            c->at_cap = 1;
            if (c->full < c->cap - c->cap / 8) { c->full = c->cap - c->cap / 8; return 0; }
            return cache_forget(s);
        }
    }
#if GROWS_IN_PLACE
    if (cache_grow_in_place(c, cap) < 0) return refuse(s);
    c->full = cap - cap / 4;
    return 0;
#else
    u64 *old = c->slots, *slots = table_alloc(cap * slot_bytes);
    size_t old_cap = c->cap;
    if (!slots) return refuse(s);
    c->slots = slots; c->cap = cap; c->full = cap - cap / 4;
    for (size_t i = 0; i < old_cap; i++)
        if (slot_used(old + i * sw)) memcpy(cache_find(c, old + i * sw), old + i * sw, slot_bytes);
    table_free(old, old_cap * slot_bytes);
    return 0;
#endif
}

static int cache_put(Counter *s, const u64 *key, Count *value) {
    Cache *c = &s->cache;
    int kw = c->key_words;
    if (c->n + 1 > c->full && cache_grow(s) < 0) return -1;
    u64 *slot = cache_find(c, key), word;
    if (!value->big && value->small < BIG_FLAG) {
        word = (u64)value->small;
    } else {
        PyObject *total = count_to_long(value);
        if (!total) return -1;
        word = BIG_FLAG | (u64)PyList_GET_SIZE(s->bigs);
        int failed = PyList_Append(s->bigs, total);
        Py_DECREF(total);
        if (failed) return -1;
    }
    memcpy(slot, key, kw * sizeof(u64));
    slot[kw] = word;
    c->n++;
    return 0;
}

/* A position that prunes at once (a region that can take nothing, a cell that cannot be covered) counts 0.
   Below the cap it is cached, as the twin caches it; at the cap it is not, since finding it again costs
   little more than looking it up, and its slot is better spent on a count that took a search. */
static int cache_dead_end(Counter *s, const u64 *key, Count *zero) {
    return s->cache.at_cap ? 0 : cache_put(s, key, zero);
}

static int cell_uncovered(const Counter *s, int cell) { return s->uncovered[cell >> 6] >> (cell & 63) & 1; }
static void flip_cell(Counter *s, int cell) {
    s->uncovered[cell >> 6] ^= 1ULL << (cell & 63);
    s->uncovered_hash ^= mix64(0xD6E8FEB86659FD93ULL + (u64)cell);
}

static void flip_half(Counter *s, int pip, int by) {
    s->halves[pip] += by;
    s->halves_hash += (u64)(long long)by * s->pip_hash[pip];
    if (s->halves[pip]) s->present |= 1ULL << pip; else s->present &= ~(1ULL << pip);
}

/* Lay the lowest copy left of the domino {a, b}, or (undo) put back the highest copy used. */
static void take_domino(Counter *s, int a, int b, int undo) {
    int d = s->number[a * s->pips + b];
    if (undo) s->copies_left[d]++;
    int bit = s->shift[d] + s->copies[d] - s->copies_left[d];  /* copies are used lowest first */
    if (!undo) s->copies_left[d]--;
    s->remaining[bit >> 6] ^= 1ULL << (bit & 63);
    if (s->copies_left[d] == (undo ? 1 : 0)) {  /* the last copy went, or came back */
        s->partners[a] ^= 1ULL << b;
        if (a != b) s->partners[b] ^= 1ULL << a;
    }
    flip_half(s, a, undo ? 1 : -1);
    flip_half(s, b, undo ? 1 : -1);
}

static int check(Counter *s) {  /* check_search (deadline, node budget, memory cap), then Ctrl-C */
    PyObject *ok = PyObject_CallFunction(s->check_search, "LOOO", s->nodes, s->deadline, s->memory_cap, s->node_limit);
    if (!ok) return -1;
    Py_DECREF(ok);
    return PyErr_CheckSignals();
}

static int load_neighbours(Counter *s) {  /* the twin's cell_tables (and its guard), once per count */
    PyObject *tables = PyObject_CallOneArg(s->cell_tables, s->deadline);
    if (!tables) return -1;
    PyObject *lists = PyTuple_GetItem(tables, 0);
    for (int cell = 0; lists && cell < s->cells; cell++) {
        PyObject *mine = PyList_GetItem(lists, cell);
        if (!mine) break;
        Py_ssize_t n = PyList_GET_SIZE(mine);
        for (int k = 0; k < 4; k++)
            s->neighbours[4 * cell + k] = k < n ? (int)PyLong_AsLong(PyTuple_GetItem(PyList_GET_ITEM(mine, k), 0)) : -1;
    }
    Py_DECREF(tables);
    if (PyErr_Occurred()) return -1;
    s->have_neighbours = 1;
    return 0;
}

/* ---------------------------------------------------------------- progress (progress.py's Progress) */

static double monotonic(void) {  /* the clock of Python's time.monotonic */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* *out = a + b */
static int count_sum(Count *out, const Count *a, const Count *b) {
    count_clear(out);
    out->small = a->small;
    out->big = a->big;
    Py_XINCREF(out->big);
    return count_add(out, b);
}

static void progress_start(Counter *s) {
    for (int level = 0; level <= MAX_TRACKED; level++) {
        s->start[level] = 0.0; s->span[level] = 1.0; s->branches[level] = 1;
        count_clear(&s->found[level]);
    }
    s->reported = 0.0;
}

/* Progress._next: the span of the node's next branch. */
static int progress_next(Counter *s, int depth, long long done, const Count *found) {
    int child = depth + 1;
    s->span[child] = s->span[depth] / (double)s->branches[depth];
    s->start[child] = s->start[depth] + s->span[child] * (double)done;
    return count_sum(&s->found[child], &s->found[depth], found);
}

/* Progress.begin: the current node at `depth` has `branches` branches. */
static int progress_begin(Counter *s, int depth, long long branches) {
    Count none = {0, NULL};
    s->branches[depth] = branches;
    return progress_next(s, depth, 0, &none);
}

/* Progress.report: `done` branches of the current node at `depth` are finished, with `total` solutions;
   on_progress is called when PROGRESS_EVERY has passed, and for the root's last branch. */
static int progress_report(Counter *s, int depth, long long done, const Count *total) {
    if (progress_next(s, depth, done, total) < 0) return -1;
    if (!((depth == 0 && done == s->branches[0]) || monotonic() - s->reported >= s->every)) return 0;
    s->reported = monotonic();
    Count sum = {0, NULL};
    if (count_sum(&sum, &s->found[depth], total) < 0) { count_clear(&sum); return -1; }
    PyObject *found = count_to_long(&sum);
    count_clear(&sum);
    if (!found) return -1;
    PyObject *fraction = PyFloat_FromDouble(s->start[depth] + s->span[depth] * (double)done / (double)s->branches[depth]);
    PyObject *called = fraction ? PyObject_CallFunctionObjArgs(s->on_progress, found, fraction, NULL) : NULL;
    Py_DECREF(found); Py_XDECREF(fraction);
    if (!called) return -1;
    Py_DECREF(called);
    return 0;
}

/* ---------------------------------------------------------------- the search, in the twin's steps */

static int search(Counter *s, int depth, Count *out);

/* Look up: the position's cache key (its interned position and the dominoes left) into `key`; 1 when the
   cache holds its count (put into *out), 0 when not, -1 on an exception. */
static int look_up(Counter *s, u64 *key, Count *out) {
    int kw = s->key_words, regions = s->regions;
    memcpy(s->position, s->state, regions * sizeof(u32));
    memcpy(s->position + regions, s->uncovered, s->words_cells * sizeof(u64));
    long long position = vecset_intern(&s->positions, s->position, mix64(s->sigma_hash + s->uncovered_hash));
    if (position < 0) return refuse(s);
    memset(key, 0, kw * sizeof(u64));
    key[0] = (u64)position + 1;
    pack_bits(key, 32, s->remaining, s->copies_total);
    out->small = 0; out->big = NULL;
    u64 *slot = cache_find(&s->cache, key);
    if (!slot_used(slot)) return 0;
    u64 word = slot[kw];
    if (word & BIG_FLAG) {
        out->big = PyList_GET_ITEM(s->bigs, word & ~BIG_FLAG);
        Py_INCREF(out->big);
    } else {
        out->small = word;
    }
    return 1;
}

/* The twin's `bound_regions`: how many regions are unfinished; *first_bound the first whose rule can still
   fail (-1: none). */
static int bound_regions(const Counter *s, int *first_bound) {
    int unfinished = 0;
    *first_bound = -1;
    for (int r = 0; r < s->regions; r++)
        if (s->left[r]) {
            unfinished++;
            if (*first_bound < 0 && !(s->free_kind[r] || s->state[r] == s->decided)) *first_bound = r;
        }
    return unfinished;
}

/* Close: the closed form (a Python call, `StructuralCounter.closed_form`, within the count's deadline and
   memory cap) when the rest is free, stored under `key`; 1 when closed (the count in *out), 0 when the
   position needs a search, -1 on an exception. */
static int close_form(Counter *s, const u64 *key, int *first_bound, Count *out) {
    if (bound_regions(s, first_bound) != 1 && *first_bound >= 0) return 0;
    PyObject *cells = bits_to_long(s->uncovered, s->words_cells), *left = NULL, *value = NULL;
    if (cells && (left = bits_to_long(s->remaining, s->words_left)))
        value = *first_bound < 0
            ? PyObject_CallFunction(s->closed_form, "OOOOOO", cells, left, Py_None, Py_None, s->deadline,
                                    s->memory_cap)
            : PyObject_CallFunction(s->closed_form, "OOiOOO", cells, left, *first_bound,
                                    PyList_GET_ITEM(s->state_values, s->state[*first_bound]), s->deadline,
                                    s->memory_cap);
    Py_XDECREF(cells); Py_XDECREF(left);
    if (!value) return -1;
    int failed = count_from_long(value, out) < 0;
    Py_DECREF(value);
    if (failed) return -1;
    if (cache_put(s, key, out) < 0) { count_add(&s->partial, out); count_clear(out); return -1; }
    return 1;
}

/* The twin's `allowed_pips`: what each unfinished region may still take, into region_pips (a free one: any
   pip left); 1, 0 when a region can take nothing, -1 on an exception. */
static int allowed_pips(Counter *s, int first_bound, u64 *region_pips) {
    if (!s->have_neighbours && load_neighbours(s) < 0) return -1;
    long long supply = supply_id(s);
    if (supply < 0) return -1;
    for (int r = 0; r < s->regions; r++) region_pips[r] = s->present;
    for (int r = first_bound; r < s->regions; r++) {
        if (!s->left[r] || s->free_kind[r] || s->state[r] == s->decided) continue;
        if (allowed(s, r, supply, region_pips + r) < 0) return -1;
        if (!region_pips[r]) return 0;
    }
    return 1;
}

/* The twin's `ways_to_cover`: the ways to cover `cell` with an uncovered neighbour. */
static long long ways_to_cover(const Counter *s, int cell, const u64 *region_pips) {
    u64 mine = region_pips[s->cell_region[cell]];
    long long ways = 0;
    for (int k = 0; k < 4; k++) {
        int other = s->neighbours[4 * cell + k];
        if (other < 0) break;
        if (!cell_uncovered(s, other)) continue;
        u64 theirs = region_pips[s->cell_region[other]];
        for (u64 pips = mine; pips; pips &= pips - 1)
            ways += bit_count(s->partners[__builtin_ctzll(pips)] & theirs);
    }
    return ways;
}

/* The twin's `choose_cell`: the uncovered cell to cover next (forced cells first, then the `ways` or the
   `sweep` order), its ways into *ways; -1 when a cell cannot be covered. */
static int choose_cell(const Counter *s, const u64 *region_pips, long long *ways_out) {
    int best = -1;
    long long best_rank = 1LL << 62;
    for (int w = 0; w < s->words_cells && best_rank > 1; w++) {
        for (u64 bits = s->uncovered[w]; bits; bits &= bits - 1) {
            int cell = w * 64 + __builtin_ctzll(bits), region = s->cell_region[cell];
            long long ways = ways_to_cover(s, cell, region_pips), rank;
            if (ways == 0) return -1;
            if (ways == 1) rank = 1;
            else if (s->by_sweep) rank = s->sweep_rank[cell];
            else rank = ways + (s->left[region] == s->sizes[region] || s->sizes[region] > 8 ? 1000 : 100);
            if (rank < best_rank) {
                best = cell; *ways_out = ways; best_rank = rank;
                if (ways == 1) break;
            }
        }
    }
    return best;
}

/* One branch: the domino (pip on `cell`, other_pip on `other`) laid, the position after it counted into
   *branch, the domino lifted again; the other region's state is already stepped to `other_next`. */
static int lay_and_count(Counter *s, int depth, int cell, int pip, int other, int other_pip, u32 other_next,
                         Count *branch) {
    int other_region = s->cell_region[other];
    u32 other_old = s->state[other_region];
    set_state(s, other_region, other_next);
    s->left[other_region]--;
    take_domino(s, pip, other_pip, 0);
    flip_cell(s, cell); flip_cell(s, other);
    int failed = search(s, depth + 1, branch);
    flip_cell(s, cell); flip_cell(s, other);
    take_domino(s, pip, other_pip, 1);
    s->left[other_region]++;
    set_state(s, other_region, other_old);
    return failed ? -1 : 0;
}

/* The branches with `pip` on `cell` and a partner on `other`, summed into *total (the twin's inner loops of
   `branch`); *done counts them for the progress. -1 on an exception. */
static int branch_pair(Counter *s, int depth, int cell, int pip, int other, const u64 *region_pips, Count *total,
                       long long *done) {
    int other_region = s->cell_region[other];
    for (u64 other_pips = s->partners[pip] & region_pips[other_region]; other_pips; other_pips &= other_pips - 1) {
        int other_pip = __builtin_ctzll(other_pips);
        u32 other_next;
        if (step(s, other_region, other_pip, s->left[other_region] - 1, &other_next) < 0) return -1;
        if (other_next != FAIL_ID) {
            Count branch;
            if (lay_and_count(s, depth, cell, pip, other, other_pip, other_next, &branch) < 0) return -1;
            int failed = count_add(total, &branch);
            count_clear(&branch);
            if (failed) return -1;
        }
        ++*done;
        if (depth < s->tracked && progress_report(s, depth, *done, total) < 0) return -1;
    }
    return 0;
}

/* Branch: the sum of the counts after each domino that covers `cell`, into *total; -1 on an exception (the
   finished branches added to s->partial). */
static int branch(Counter *s, int depth, int cell, long long ways, const u64 *region_pips, Count *total) {
    if (depth < s->tracked && progress_begin(s, depth, ways) < 0) return -1;
    int region = s->cell_region[cell];
    long long done = 0;
    total->small = 0; total->big = NULL;
    for (int k = 0; k < 4; k++) {
        int other = s->neighbours[4 * cell + k];
        if (other < 0) break;
        if (!cell_uncovered(s, other)) continue;
        for (u64 pips = region_pips[region]; pips; pips &= pips - 1) {
            int pip = __builtin_ctzll(pips);
            u32 next, old = s->state[region];
            if (step(s, region, pip, s->left[region] - 1, &next) < 0) goto stop;
            if (next == FAIL_ID) continue;
            set_state(s, region, next);
            s->left[region]--;
            int failed = branch_pair(s, depth, cell, pip, other, region_pips, total, &done);
            s->left[region]++;
            set_state(s, region, old);
            if (failed) goto stop;
        }
    }
    return 0;
stop: {  /* this level's finished branches join the lower bound, the exception kept as it is */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        count_add(&s->partial, total);
        PyErr_Clear();
        PyErr_Restore(type, value, traceback);
        count_clear(total);
        return -1;
    }
}

/* N(U, L, sigma) of the position; the twin's `StructuralSearch.count`: look up, close, prune, choose a cell,
   branch, store. -1 on an exception (the finished branches added to s->partial). */
static int search(Counter *s, int depth, Count *out) {
    u64 *key = s->keys + (size_t)depth * s->key_words;
    int found = look_up(s, key, out), first_bound;
    if (found) return found < 0 ? -1 : 0;
    s->nodes++;
    if (s->nodes % s->check_every == 0 && check(s) < 0) return -1;
    int closed = close_form(s, key, &first_bound, out);
    if (closed) return closed < 0 ? -1 : 0;
    u64 *region_pips = s->region_pips + (size_t)depth * s->regions;
    int allowed_any = allowed_pips(s, first_bound, region_pips);
    if (allowed_any <= 0) return allowed_any < 0 ? -1 : cache_dead_end(s, key, out);
    long long ways = 0;
    int cell = choose_cell(s, region_pips, &ways);
    if (cell < 0) return cache_dead_end(s, key, out);
    Count total;
    if (branch(s, depth, cell, ways, region_pips, &total) < 0) return -1;
    if (cache_put(s, key, &total) < 0) {
        count_add(&s->partial, &total);
        count_clear(&total);
        return -1;
    }
    *out = total;
    return 0;
}

/* ---------------------------------------------------------------- the Python type */

static int int_list(PyObject *list, int n, int *out) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_SetString(PyExc_ValueError, "a table of the wrong length");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        out[i] = (int)PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* The core holds Python objects (callbacks, interned states, supplies): the garbage collector sees them. */
static int Counter_traverse(Counter *s, visitproc visit, void *arg) {
    Py_VISIT(s->steps); Py_VISIT(s->allowed_of); Py_VISIT(s->closed_form); Py_VISIT(s->cell_tables);
    Py_VISIT(s->supply_of); Py_VISIT(s->check_search); Py_VISIT(s->resident_bytes); Py_VISIT(s->cap_reached);
    Py_VISIT(s->state_values); Py_VISIT(s->supplies); Py_VISIT(s->bigs); Py_VISIT(s->state_ids);
    return 0;
}

static int Counter_clear(Counter *s) {
    Py_CLEAR(s->steps); Py_CLEAR(s->allowed_of); Py_CLEAR(s->closed_form); Py_CLEAR(s->cell_tables);
    Py_CLEAR(s->supply_of); Py_CLEAR(s->check_search); Py_CLEAR(s->resident_bytes); Py_CLEAR(s->cap_reached);
    Py_CLEAR(s->state_ids); Py_CLEAR(s->state_values); Py_CLEAR(s->supplies); Py_CLEAR(s->bigs);
    count_clear(&s->partial);
    for (int level = 0; level <= MAX_TRACKED; level++) count_clear(&s->found[level]);
    return 0;
}

static void Counter_dealloc(Counter *s) {
    PyObject_GC_UnTrack(s);
    Counter_clear(s);
    free(s->cell_region); free(s->sizes); free(s->neighbours); free(s->free_kind); free(s->sweep_rank);
    free(s->domino_a); free(s->domino_b); free(s->copies); free(s->shift); free(s->number); free(s->initial);
    free(s->uncovered); free(s->remaining); free(s->keys); free(s->region_pips); free(s->state); free(s->halves);
    free(s->position); free(s->left); free(s->copies_left);
    free(s->step_memo.slots); free(s->allowed_memo.slots);
    table_free(s->cache.slots, s->cache.cap * (s->cache.key_words + 1) * sizeof(u64));
    free(s->positions.vectors); free(s->positions.hashes); free(s->positions.index);
    free(s->halves_set.vectors); free(s->halves_set.hashes); free(s->halves_set.index);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Counter_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *cell_region, *sizes, *free_kind, *initial, *distinct, *sweep_rank, *decided;
    int cells, pips, by_sweep, check_every;
    Counter *s = (Counter *)type->tp_alloc(type, 0);
    if (!s) return NULL;
    if (!PyArg_ParseTuple(args, "iOOOOOOOiOpOOOOOOOi:Counter", &cells, &cell_region, &sizes, &free_kind, &initial,
                          &s->steps, &s->allowed_of, &distinct, &pips, &sweep_rank, &by_sweep, &decided,
                          &s->closed_form, &s->cell_tables, &s->supply_of, &s->check_search, &s->resident_bytes,
                          &s->cap_reached, &check_every)) {
        s->steps = s->allowed_of = s->closed_form = s->cell_tables = s->supply_of = NULL;
        s->check_search = s->resident_bytes = s->cap_reached = NULL;
        Py_DECREF(s);
        return NULL;
    }
    PyObject **owned[] = {&s->steps, &s->allowed_of, &s->closed_form, &s->cell_tables, &s->supply_of,
                          &s->check_search, &s->resident_bytes, &s->cap_reached};
    for (size_t i = 0; i < sizeof owned / sizeof *owned; i++) Py_INCREF(*owned[i]);
    if (pips > MAX_PIPS || !PyList_Check(s->steps) || !PyList_Check(distinct)) {
        PyErr_SetString(PyExc_ValueError, "the compiled counter takes lists and at most 64 pips");
        goto fail;
    }
    int regions = (int)PyList_GET_SIZE(s->steps), count = (int)PyList_GET_SIZE(distinct), copies = 0;
    s->cells = cells; s->regions = regions; s->pips = pips; s->distinct = count;
    s->by_sweep = by_sweep; s->check_every = check_every;
    s->cell_region = calloc(cells + 1, sizeof(int)); s->sizes = calloc(regions + 1, sizeof(int));
    s->neighbours = calloc(4 * (size_t)cells + 1, sizeof(int)); s->free_kind = calloc(regions + 1, 1);
    s->sweep_rank = calloc(cells + 1, sizeof(long long)); s->initial = calloc(regions + 1, sizeof(u32));
    s->domino_a = calloc(count + 1, sizeof(int)); s->domino_b = calloc(count + 1, sizeof(int));
    s->copies = calloc(count + 1, sizeof(int)); s->shift = calloc(count + 1, sizeof(int));
    s->copies_left = calloc(count + 1, sizeof(int)); s->number = calloc((size_t)pips * pips + 1, sizeof(int));
    s->state = calloc(regions + 1, sizeof(u32)); s->left = calloc(regions + 1, sizeof(int));
    s->halves = calloc(pips + 1, sizeof(u32));
    s->state_ids = PyDict_New(); s->state_values = PyList_New(0); s->supplies = PyList_New(0); s->bigs = PyList_New(0);
    if (!s->cell_region || !s->sizes || !s->neighbours || !s->free_kind || !s->sweep_rank || !s->initial ||
        !s->domino_a || !s->domino_b || !s->copies || !s->shift || !s->copies_left || !s->number || !s->state ||
        !s->left || !s->halves || !s->state_ids || !s->state_values || !s->supplies || !s->bigs) {
        PyErr_NoMemory();
        goto fail;
    }
    if (int_list(cell_region, cells, s->cell_region) < 0 || int_list(sizes, regions, s->sizes) < 0) goto fail;
    for (int r = 0; r < regions; r++) {
        int free = PyObject_IsTrue(PyList_GetItem(free_kind, r));
        if (free < 0) goto fail;
        s->free_kind[r] = (char)free;
    }
    for (int i = 0; i < cells; i++) {
        s->sweep_rank[i] = PyLong_AsLongLong(PyList_GetItem(sweep_rank, i));
        if (PyErr_Occurred()) goto fail;
    }
    for (int d = 0; d < count; d++) {  /* ((a, b), copies) */
        PyObject *item = PyList_GET_ITEM(distinct, d);
        if (!PyArg_ParseTuple(item, "(ii)i", &s->domino_a[d], &s->domino_b[d], &s->copies[d])) goto fail;
        s->shift[d] = copies;
        copies += s->copies[d];
        s->number[s->domino_a[d] * pips + s->domino_b[d]] = s->number[s->domino_b[d] * pips + s->domino_a[d]] = d;
    }
    for (int r = 0; r < regions; r++) {
        long long id = intern_state(s, PyList_GetItem(initial, r));
        if (id < 0) goto fail;
        s->initial[r] = (u32)id;
    }
    long long id = intern_state(s, decided);
    if (id < 0) goto fail;
    s->decided = (u32)id;
    for (int i = 0; i < MAX_PIPS; i++) s->pip_hash[i] = mix64(0xA0761D6478BD642FULL + (u64)i);
    s->words_cells = (cells + 63) / 64 + (cells == 0);
    s->words_left = (copies + 63) / 64 + (copies == 0);
    s->copies_total = copies;
    s->key_words = (32 + copies + 63) / 64;
    s->max_depth = count ? copies + 2 : 2;
    s->uncovered = calloc(s->words_cells, sizeof(u64)); s->remaining = calloc(s->words_left, sizeof(u64));
    s->keys = calloc((size_t)s->max_depth * s->key_words, sizeof(u64));
    s->region_pips = calloc((size_t)s->max_depth * (regions + 1), sizeof(u64));
    s->positions.width = regions + 2 * s->words_cells; s->halves_set.width = pips;
    s->position = calloc(s->positions.width, sizeof(u32));
    s->cache.key_words = s->key_words; s->cache.cap = 1024; s->cache.full = 768;
    s->cache.slots = table_alloc(s->cache.cap * (s->key_words + 1) * sizeof(u64));
    if (!s->uncovered || !s->remaining || !s->keys || !s->region_pips || !s->position || !s->cache.slots ||
        memo2_grow(&s->step_memo) < 0 || memo2_grow(&s->allowed_memo) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}

/* Start the count at a position below the root (the twin's `StructuralCounter.count_from`): `start` is (the
   covered cells, the distinct domino of each copy laid, each region's state), laid over the root that count()
   has set up. 0, or -1 with a ValueError when the position does not fit the puzzle. */
static int start_at(Counter *s, PyObject *start) {
    PyObject *covered, *laid, *states;
    if (!PyArg_ParseTuple(start, "OOO:start", &covered, &laid, &states)) return -1;
    if (!PyList_Check(covered) || !PyList_Check(laid) || !PyList_Check(states) ||
        PyList_GET_SIZE(states) != s->regions) {
        PyErr_SetString(PyExc_ValueError, "start: lists of the covered cells, the dominoes laid, every region's state");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(covered); i++) {
        long cell = PyLong_AsLong(PyList_GET_ITEM(covered, i));
        if (cell == -1 && PyErr_Occurred()) return -1;
        if (cell < 0 || cell >= s->cells || !cell_uncovered(s, (int)cell)) {
            PyErr_Format(PyExc_ValueError, "start: cell %ld is not a cell left to cover", cell);
            return -1;
        }
        flip_cell(s, (int)cell);
        s->left[s->cell_region[cell]]--;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(laid); i++) {
        long d = PyLong_AsLong(PyList_GET_ITEM(laid, i));
        if (d == -1 && PyErr_Occurred()) return -1;
        if (d < 0 || d >= s->distinct || !s->copies_left[d]) {
            PyErr_Format(PyExc_ValueError, "start: no copy of domino %ld is left to lay", d);
            return -1;
        }
        take_domino(s, s->domino_a[d], s->domino_b[d], 0);
    }
    for (int r = 0; r < s->regions; r++) {
        long long id = intern_state(s, PyList_GET_ITEM(states, r));
        if (id < 0) return -1;
        set_state(s, r, (u32)id);
    }
    return 0;
}

/* count(deadline, memory_cap, node_limit, on_progress, tracked, every[, start]) -> the exact count (a Python int); the
   levels above `tracked` report to `on_progress`, at most every `every` seconds. On an exception the lower
   bound of the finished branches is `partial`; `nodes` are the search nodes of the last count. With `start`
   (not None), the count of that position (start_at). */
static PyObject *Counter_count(Counter *s, PyObject *args) {
    PyObject *start = Py_None;
    if (!PyArg_ParseTuple(args, "OOOOid|O:count", &s->deadline, &s->memory_cap, &s->node_limit, &s->on_progress,
                          &s->tracked, &s->every, &start))
        return NULL;
    if (s->tracked < 0 || s->tracked > MAX_TRACKED || (s->tracked && s->on_progress == Py_None)) {
        PyErr_Format(PyExc_ValueError, "count: tracked must be 0 to %d, and 0 without on_progress", MAX_TRACKED);
        s->deadline = s->memory_cap = s->node_limit = s->on_progress = NULL;
        return NULL;
    }
    progress_start(s);
    memset(s->uncovered, 0, s->words_cells * sizeof(u64));
    s->uncovered_hash = 0;
    memset(s->remaining, 0, s->words_left * sizeof(u64));
    for (int i = 0; i < s->cells; i++) flip_cell(s, i);
    memset(s->halves, 0, s->pips * sizeof(u32));
    memset(s->partners, 0, sizeof s->partners);
    s->present = s->halves_hash = s->sigma_hash = 0;
    for (int d = 0; d < s->distinct; d++) {
        int a = s->domino_a[d], b = s->domino_b[d];
        for (int c = 0; c < s->copies[d]; c++) {
            int bit = s->shift[d] + c;
            s->remaining[bit >> 6] |= 1ULL << (bit & 63);
        }
        s->copies_left[d] = s->copies[d];
        s->partners[a] |= 1ULL << b;
        s->partners[b] |= 1ULL << a;
        flip_half(s, a, s->copies[d]);
        flip_half(s, b, s->copies[d]);
    }
    for (int r = 0; r < s->regions; r++) {
        s->state[r] = s->initial[r];
        s->sigma_hash += sigma_part(r, s->state[r]);
        s->left[r] = s->sizes[r];
    }
    if (start != Py_None && start_at(s, start) < 0) {
        s->deadline = s->memory_cap = s->node_limit = s->on_progress = NULL;
        return NULL;
    }
    s->have_neighbours = 0;
    s->cache.at_cap = 0;
    s->nodes = 0;
    count_clear(&s->partial);
    s->start_resident = s->start_tables = 0;
    if (s->memory_cap != Py_None) {
        s->start_tables = (long long)table_bytes(s);
        s->start_resident = held_bytes(s);  /* the resident bytes: the tables have not grown yet */
    }
    Count total;
    int failed = s->start_resident < 0 || search(s, 0, &total) < 0;
    s->deadline = s->memory_cap = s->node_limit = s->on_progress = NULL;  /* borrowed for the call only */
    progress_start(s);  /* drops the found counts it held */
    if (failed) return NULL;
    PyObject *result = count_to_long(&total);
    count_clear(&total);
    return result;
}

static PyObject *Counter_get_nodes(Counter *s, void *closure) { return PyLong_FromLongLong(s->nodes); }
static PyObject *Counter_get_partial(Counter *s, void *closure) { return count_to_long(&s->partial); }
static PyObject *Counter_get_entries(Counter *s, void *closure) { return PyLong_FromSize_t(s->cache.n); }
static PyObject *Counter_get_forgotten(Counter *s, void *closure) { return PyLong_FromLongLong(s->forgotten); }
static PyObject *Counter_get_table_bytes(Counter *s, void *closure) { return PyLong_FromSize_t(table_bytes(s)); }

static PyGetSetDef Counter_getset[] = {
    {"nodes", (getter)Counter_get_nodes, NULL, "search nodes of the last count (cached subproblems not counted)", NULL},
    {"partial", (getter)Counter_get_partial, NULL, "the finished branches' count when the last count stopped", NULL},
    {"entries", (getter)Counter_get_entries, NULL, "residual subproblems cached", NULL},
    {"forgotten", (getter)Counter_get_forgotten, NULL, "cached counts forgotten at the memory cap", NULL},
    {"table_bytes", (getter)Counter_get_table_bytes, NULL, "bytes of the C tables (cache, memos, interned vectors)", NULL},
    {NULL},
};

static PyMethodDef Counter_methods[] = {
    {"count", (PyCFunction)Counter_count, METH_VARARGS,
     "count(deadline, memory_cap, node_limit, on_progress, tracked, every[, start]) -> int"},
    {NULL},
};

static PyTypeObject CounterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pipscover.counting._structural.Counter",
    .tp_basicsize = sizeof(Counter),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Counter_traverse,
    .tp_clear = (inquiry)Counter_clear,
    .tp_doc = "The structural counter's search in C; its caches last as long as it does.",
    .tp_new = Counter_new,
    .tp_dealloc = (destructor)Counter_dealloc,
    .tp_methods = Counter_methods,
    .tp_getset = Counter_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_structural", "The structural counter's compiled core.", -1};

PyMODINIT_FUNC PyInit__structural(void) {
    if (PyType_Ready(&CounterType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CounterType);
    if (PyModule_AddObject(m, "Counter", (PyObject *)&CounterType) < 0 ||
        PyModule_AddStringConstant(m, "source_digest", SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
