"func.func"() <{function_type = () -> (), sym_name = "entry_pred"}> ({
^bb0:
  "cf.br"()[^bb0] : () -> ()
}) : () -> ()
