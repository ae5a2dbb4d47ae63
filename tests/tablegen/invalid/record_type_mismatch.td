class Shape;
class Color;
def Red : Color;
class Holder<Shape s> { Shape shape = s; }
def H : Holder<Red>;
