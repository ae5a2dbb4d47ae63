include "include_cycle.td"
