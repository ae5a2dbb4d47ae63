class A { string s = "never closed; }
