/* The compiled core of pipscover.counting.inclusion_exclusion: its sweeps, one per point, in C.

   inclusion_exclusion.py says what is summed and why (Ryser's formula over the domino types) and keeps the
   Python twin of `total` (`sweep_total`), which this follows line by line: the same points in the same
   order (Ryser's or Glynn's, as `Points` gives them), the same pull-style pass over the sweep's graph (each
   state the sum of its sources times their forms' weights), all modulo 2^128 (unsigned __int128 wraps), so both give the same number.

   A pass costs about 28 instructions an edge (callgrind, no-unique-22): the 128-bit product and the sign's
   correction, the edge's indices, and the state's loop (a state for every 2.7 edges). Sweeping B points in
   one pass (each state's B values side by side, an edge's source and form read once for all) was measured
   and dropped: 16-22 instructions an edge and a point for B = 2 to 16, but no less time (gcc keeps the B
   128-bit sums in memory; the loop is not what bounds a pass). What paid is a smaller graph: the steps that
   lay nothing are folded away as it is built (`_skips_folded`), and its indices are C ints.
   encodings/counting.md has the measurements. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef SOURCE_DIGEST  /* setup.py gives the SHA-256 of this file: the tests check the core is current */
#define SOURCE_DIGEST ""
#endif

typedef unsigned __int128 u128;
typedef uint64_t u64;

static int read_ints(PyObject *list, long long *out, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLongLong(PyList_GET_ITEM(list, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* One sweep at a point: each state the sum of its sources times their forms' weights, modulo 2^128; the value
   of the covered board. v * w with w negative is v * (w + 2^64) less v * 2^64: the product by a 64-bit word
   and a mask (a third faster than by w's 128-bit residue). `negative` is a constant where it is inlined, so
   that a point with no negative weight (Ryser's form) takes the plain loop. */
static inline u128 pass(u128 *values, Py_ssize_t final, const int *starts, const int *from, const int *by,
                        const long long *weight, const int negative) {
    values[0] = 1;
    for (Py_ssize_t state = 1; state <= final; state++) {
        u128 value = 0;
        for (int e = starts[state]; e < starts[state + 1]; e++) {
            u128 v = values[from[e]];
            long long w = weight[by[e]];
            value += v * (u64)w;
            if (negative) value -= (u128)((u64)v & (u64)(w >> 63)) << 64;
        }
        values[state] = value;
    }
    return values[final];
}

/* Whether the graph's buffers hold C ints and agree in length: `final` + 2 starts, first[final + 1] edges. */
static int graph_fits(const Py_buffer *first, const Py_buffer *sources, const Py_buffer *edge_forms, Py_ssize_t final) {
    if (final >= 0 && first->len == (final + 2) * (Py_ssize_t)sizeof(int) && sources->len == edge_forms->len &&
        sources->len == ((const int *)first->buf)[final + 1] * (Py_ssize_t)sizeof(int))
        return 1;
    PyErr_SetString(PyExc_ValueError, "total: first, sources and edge_forms: C ints, final + 2 and first[final + 1]");
    return 0;
}

/* total(digits, weights, signs, forms, first, sources, edge_forms, final, check, every, begin, end) -> (low, high):
   the twin's `sweep_total` over the points numbered begin to end - 1 (a chunk, for a task of a split count),
   as the two 64-bit halves of the sum.
   A point is one digit per type, the first type fastest: type t has `digits[t]` of them; `weights` holds,
   type after type, the weight each digit gives the type (k in Ryser's form, m - 2j in Glynn's: it may be
   negative) and `signs` its sign, modulo 2^128, as (low, high) 64-bit halves; `forms` each form as a flat list
   (type, times, type, times, ...), type -1 for the step that lays nothing; `first`, `sources` and `edge_forms`
   are buffers of C ints (array "i"); `check(points done)` is called every `every` points of the chunk. The sweeps run
   without the GIL, so that the threads of a Dask worker sweep side by side. */
static PyObject *total(PyObject *self, PyObject *args) {
    PyObject *digits_list, *weights_list, *signs_list, *forms_list, *check, *result = NULL;
    Py_buffer first = {0}, sources = {0}, edge_forms = {0};
    Py_ssize_t final, every, begin, end;
    if (!PyArg_ParseTuple(args, "O!O!O!O!y*y*y*nOnnn:total", &PyList_Type, &digits_list, &PyList_Type, &weights_list,
                          &PyList_Type, &signs_list, &PyList_Type, &forms_list, &first, &sources, &edge_forms, &final,
                          &check, &every, &begin, &end))
        return NULL;
    if (!graph_fits(&first, &sources, &edge_forms, final)) {
        PyBuffer_Release(&first); PyBuffer_Release(&sources); PyBuffer_Release(&edge_forms);
        return NULL;
    }
    Py_ssize_t types = PyList_GET_SIZE(digits_list), form_count = PyList_GET_SIZE(forms_list);
    const int *starts = first.buf, *from = sources.buf, *by = edge_forms.buf;
    long long *digits = calloc(types + 1, sizeof(long long)), *point = calloc(types + 1, sizeof(long long));
    Py_ssize_t *form_start = calloc(form_count + 1, sizeof(Py_ssize_t));
    long long *pairs = NULL, *halves = NULL, *weights = NULL, *digit_start = calloc(types + 1, sizeof(long long));
    u128 *signs = NULL;
    long long *weight = calloc(form_count + 1, sizeof(long long));
    u128 *values = calloc(final + 1, sizeof(u128));
    if (!digits || !point || !form_start || !weight || !values || !digit_start) { PyErr_NoMemory(); goto done; }
    if (read_ints(digits_list, digits, types) < 0) goto done;
    for (Py_ssize_t t = 0; t < types; t++) digit_start[t + 1] = digit_start[t] + digits[t];
    if (PyList_GET_SIZE(signs_list) != 2 * digit_start[types] || PyList_GET_SIZE(weights_list) != digit_start[types]) {
        PyErr_SetString(PyExc_ValueError, "total: a weight and two halves of a sign per digit");
        goto done;
    }
    if (!(halves = calloc(2 * digit_start[types] + 1, sizeof(long long))) ||
        !(signs = calloc(digit_start[types] + 1, sizeof(u128))) || !(weights = calloc(digit_start[types] + 1, sizeof(long long)))) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_ints(weights_list, weights, digit_start[types]) < 0) goto done;
    for (Py_ssize_t i = 0; i < 2 * digit_start[types]; i++) {  /* unsigned halves: read as such */
        halves[i] = (long long)PyLong_AsUnsignedLongLong(PyList_GET_ITEM(signs_list, i));
        if (PyErr_Occurred()) goto done;
    }
    for (long long i = 0; i < digit_start[types]; i++) signs[i] = (u128)(u64)halves[2 * i + 1] << 64 | (u64)halves[2 * i];
    for (Py_ssize_t f = 0; f < form_count; f++) form_start[f + 1] = form_start[f] + PyList_GET_SIZE(PyList_GET_ITEM(forms_list, f));
    if (!(pairs = calloc(form_start[form_count] + 1, sizeof(long long)))) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t f = 0; f < form_count; f++)
        if (read_ints(PyList_GET_ITEM(forms_list, f), pairs + form_start[f], form_start[f + 1] - form_start[f]) < 0) goto done;
    u128 sum = 0;
    Py_ssize_t number = begin;  /* the first point of the chunk, the first type fastest */
    for (Py_ssize_t t = 0; t < types; t++) {
        point[t] = number % digits[t];
        number /= digits[t];
    }
    for (Py_ssize_t done = 0; done < end - begin; done++) {
        if (done % every == 0) {
            PyObject *so_far = PyLong_FromSsize_t(done);
            PyObject *checked = so_far ? PyObject_CallOneArg(check, so_far) : NULL;
            Py_XDECREF(so_far);
            if (!checked || PyErr_CheckSignals() < 0) { Py_XDECREF(checked); goto done; }
            Py_DECREF(checked);
        }
        u128 swept;
        int negative = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t f = 0; f < form_count; f++) {
            long long w = 0;
            for (Py_ssize_t i = form_start[f]; i < form_start[f + 1]; i += 2)
                w += pairs[i + 1] * (pairs[i] < 0 ? 1 : weights[digit_start[pairs[i]] + point[pairs[i]]]);
            weight[f] = w;
            negative |= w < 0;
        }
        swept = negative ? pass(values, final, starts, from, by, weight, 1) : pass(values, final, starts, from, by, weight, 0);
        Py_END_ALLOW_THREADS
        u128 coefficient = 1;
        for (Py_ssize_t t = 0; t < types; t++) coefficient *= signs[digit_start[t] + point[t]];
        sum += coefficient * swept;
        Py_ssize_t t = 0;  /* the next point, the first type fastest */
        while (t < types && point[t] == digits[t] - 1) point[t++] = 0;
        if (t < types) point[t]++;
    }
    result = Py_BuildValue("KK", (unsigned long long)sum, (unsigned long long)(sum >> 64));
done:
    free(digits); free(point); free(form_start); free(pairs); free(weight); free(values);
    free(digit_start); free(halves); free(signs); free(weights);
    PyBuffer_Release(&first); PyBuffer_Release(&sources); PyBuffer_Release(&edge_forms);
    return result;
}

static PyMethodDef methods[] = {
    {"total", total, METH_VARARGS, "The sum over the points of the signed sweeps, modulo 2^128, as (low, high)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_inclusion_exclusion",
                                    "The inclusion-exclusion counter's compiled sweeps.", -1, methods};

PyMODINIT_FUNC PyInit__inclusion_exclusion(void) {
    PyObject *made = PyModule_Create(&module);
    if (made && PyModule_AddStringConstant(made, "source_digest", SOURCE_DIGEST) < 0) Py_CLEAR(made);
    return made;
}
