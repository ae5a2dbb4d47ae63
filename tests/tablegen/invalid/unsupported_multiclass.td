multiclass M { def _a; }
