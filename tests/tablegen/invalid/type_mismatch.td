class A { int count = 0; }
def B : A { let count = "three"; }
