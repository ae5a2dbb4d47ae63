class A<int x, string s> { int v = x; }
def B : A<1>;
