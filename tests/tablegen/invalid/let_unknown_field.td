class A { int count = 0; }
let size = 4 in {
  def B : A;
}
