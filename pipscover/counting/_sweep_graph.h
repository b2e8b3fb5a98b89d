/* The build of the sweep's graph (_sweep_graph.c), which the _inclusion_exclusion core's module offers as
   `build`: the graph, or the limit it passed. */
#ifndef PIPSCOVER_SWEEP_GRAPH_H
#define PIPSCOVER_SWEEP_GRAPH_H

#include <Python.h>

enum { TOO_MANY_LAYINGS = 1, TOO_MANY_INDICES = 2 };

PyObject *build_sweep_graph(PyObject *self, PyObject *args);

#endif
