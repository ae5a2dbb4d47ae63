class A { int a = 0; int b = a; let a = b; }
def X : A;
