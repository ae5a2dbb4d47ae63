"demo.top"() ({
  "demo.br"()[^nowhere] : () -> ()
}) : () -> ()
