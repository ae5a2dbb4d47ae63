class A<int x> { int v = x; }
def B : A<y>;
