#ifndef GUARD
#define GUARD
def A;
