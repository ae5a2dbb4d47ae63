"demo.top"() ({
  "demo.inner"() : () -> ()
