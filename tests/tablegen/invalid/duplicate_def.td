def X;
def X;
