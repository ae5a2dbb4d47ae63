def A { code c = [{ fn main() {} ; }
