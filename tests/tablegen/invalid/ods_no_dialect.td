include "OpBase.td"
