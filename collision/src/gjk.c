// stub until written
typedef int tbStubUnused;
