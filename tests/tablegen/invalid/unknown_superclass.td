def B : NotAClass<1>;
