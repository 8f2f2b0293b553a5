#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	int (*run)(int) = h ? (int (*)(int))dlsym(h, "lib_run") : NULL;
	if (!run) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	printf("%d\n", run(10));
	dlclose(h);
	return 0;
}
