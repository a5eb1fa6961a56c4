// Tasks: the step's parallel loops over ranges, on the game's job system or a small pool of
// threads.
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "world_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TB_PAUSE() _mm_pause()
#else
#define TB_PAUSE() ((void)0)
#endif

// How long a waiting thread looks at the loop counter before it sleeps on the condition variable,
// in microseconds of the monotonic clock (not a count of pause instructions, whose length differs
// tenfold between processors): the step's loops follow each other within microseconds, and a
// thread that went to sleep between two of them costs a wake-up (a system call, and the time the
// system takes to run the thread again) on each. While a step runs (tbTaskPool_SetStepping) the
// threads keep looking: the step's serial parts between two loops (the joints' grouping, the
// pairs made in order) may outlast this, and a wake-up at every one of them would cost more than
// the look. Bounded after the step, so an idle world's threads sleep.
#define TB_SPIN_MICROSECONDS 200.0
// The clock is read once every this many looks.
#define TB_SPIN_LOOKS_PER_CLOCK 32
// The caller waits this long for the last ranges of a loop (other workers are running them).
#define TB_WAIT_MICROSECONDS 200.0
// A thread that has looked this long without finding work gives up its processor between looks
// (sched_yield): the thread it waits for may be one the system has not run. That is the case
// whenever the threads outnumber the free cores (more workers than the machine has, or a game's
// own threads and other programs beside the step): a thread that only looked would hold its core
// for the whole of its time slice while the one with the work waited for it, and the step ran
// slower than on one thread. With a core each, the yield returns at once and the look goes on;
// the loops that follow each other within microseconds are found before it.
#define TB_YIELD_MICROSECONDS 20.0

// Ranges per worker and loop: a few more than one, so that a worker that was late to start or met
// slower items is helped by the others.
#define TB_RANGES_PER_WORKER 4
// The same for loops whose items differ in cost by orders of magnitude (the narrow phase's pairs:
// a sphere pair or a hull on a mesh; the broad phase's queries): the loop ends when its last range
// does, and a worker waits up to about one range's time for the other, so the ranges are smaller.
// Not for every loop: a solver pass over items of even cost gains nothing from it and gives up
// some of the cache reuse of a worker's own share (tbPoolShare).
#define TB_UNEVEN_RANGES_PER_WORKER 16

typedef struct tbTaskPool tbTaskPool;

typedef struct tbPoolThread
{
	tbTaskPool* pool;
	pthread_t thread;
	int workerIndex;
} tbPoolThread;

// A worker's share of a loop's ranges, one atomic word on its own cache line: the loop's
// generation (bits 32-63), the end of the share (16-31) and the next range to take (0-15), so that
// a thread that comes late can only take a range of the loop it saw (compare-and-swap) and never
// one of the next loop. Worker k takes the ranges of its own share first, then helps the others:
// a loop of the same size (each colour's records, each substep's bodies) gives worker k the same
// items every time, which its cache still holds (Box2D v3's worker blocks).
#define TB_TICKET(generation, end, next)                                                           \
	(((uint64_t)(generation) << 32) | ((uint64_t)(end) << 16) | (uint64_t)(next))
#define TB_MAX_RANGES 0xffff

typedef struct tbPoolShare
{
	_Alignas(64) atomic_uint_fast64_t ticket;
} tbPoolShare;

// The pool: workerCount - 1 threads; the caller of tbWorld_Step is worker 0. One loop at a time:
// the caller writes the shares, publishes the loop (a new generation), takes ranges itself, and
// waits until every range is done (not for every thread: one the system has not scheduled yet
// simply finds none left).
struct tbTaskPool
{
	pthread_mutex_t mutex;
	pthread_cond_t wake; // threads sleep here for a new loop
	pthread_cond_t done; // the caller sleeps here for the last range
	tbPoolThread threads[TB_MAX_WORKERS];
	int threadCount;
	// The loop being run, written by the caller before it publishes the shares, read by a thread
	// only after it took a range of that generation (so never while the caller writes the next).
	tbTaskCallback* task;
	void* taskContext;
	int itemCount, rangeSize;
	_Alignas(64) atomic_uint generation;
	_Alignas(64) atomic_int doneRanges;
	atomic_int sleepers;      // threads asleep on `wake`
	atomic_bool callerAsleep; // the caller asleep on `done`
	atomic_bool stepping;     // a step is running: waiting threads look on, never sleep
	atomic_bool quit;
	tbPoolShare shares[TB_MAX_WORKERS];
};

static double tbMicroseconds(void)
{
	return 1e3 * tbMilliseconds();
}

// Runs the ranges of `share` of the loop with generation `generation` until none is left there;
// returns how many it ran.
static int tbRunShare(tbTaskPool* pool, tbPoolShare* share, uint32_t generation, int workerIndex)
{
	int ran = 0;
	uint64_t ticket = atomic_load_explicit(&share->ticket, memory_order_acquire);
	// Each turn takes a range or returns; at most TB_MAX_RANGES ranges exist.
	for (int guard = 0; guard <= TB_MAX_RANGES; ++guard) {
		uint32_t end = (uint32_t)(ticket >> 16) & 0xffffu, next = (uint32_t)ticket & 0xffffu;
		if ((uint32_t)(ticket >> 32) != generation || next >= end) {
			return ran;
		}
		if (!atomic_compare_exchange_weak_explicit(&share->ticket, &ticket, ticket + 1u,
		                                           memory_order_acq_rel, memory_order_acquire)) {
			continue; // another took it (ticket now holds the word as it is)
		}
		int start = (int)next * pool->rangeSize;
		int stop =
		    start + pool->rangeSize < pool->itemCount ? start + pool->rangeSize : pool->itemCount;
		pool->task(start, stop, workerIndex, pool->taskContext);
		ran += 1;
		ticket = atomic_load_explicit(&share->ticket, memory_order_acquire);
	}
	return ran;
}

// Takes ranges of the loop with generation `generation`: the worker's own share, then the
// others' in turn, until none is left. The ranges it ran are counted as done once, at the end:
// one write to the shared count per worker and loop rather than one per range (the count's cache
// line goes back and forth between the cores at each).
static void tbRunRanges(tbTaskPool* pool, uint32_t generation, int workerIndex)
{
	int workers = pool->threadCount + 1;
	int ran = 0;
	for (int k = 0; k < workers; ++k) {
		int at = workerIndex + k < workers ? workerIndex + k : workerIndex + k - workers;
		ran += tbRunShare(pool, pool->shares + at, generation, workerIndex);
	}
	if (ran == 0) {
		return; // took none: the loop may be over, its fields another's already
	}
	// The loop's fields still hold: it is not done until these ranges are counted.
	int count = (pool->itemCount + pool->rangeSize - 1) / pool->rangeSize;
	// seq_cst with the caller's store to callerAsleep: one of the two sees the other.
	if (atomic_fetch_add(&pool->doneRanges, ran) + ran == count &&
	    atomic_load(&pool->callerAsleep)) {
		pthread_mutex_lock(&pool->mutex);
		pthread_cond_signal(&pool->done);
		pthread_mutex_unlock(&pool->mutex);
	}
}

// Looks at the generation for TB_SPIN_MICROSECONDS, on while a step runs (tbTaskPool_SetStepping);
// returns it (still `seen` when none came).
static uint32_t tbSpinForLoop(tbTaskPool* pool, uint32_t seen)
{
	uint32_t now = atomic_load_explicit(&pool->generation, memory_order_acquire);
	if (now != seen) {
		return now;
	}
	double start = tbMicroseconds();
	double until = start + TB_SPIN_MICROSECONDS, yieldFrom = start + TB_YIELD_MICROSECONDS;
	// Bounded by the clock; the guard bounds it by a count too (at most a second of looks).
	for (int guard = 0; guard < (1 << 26); ++guard) {
		for (int look = 0; look < TB_SPIN_LOOKS_PER_CLOCK; ++look) {
			TB_PAUSE();
			now = atomic_load_explicit(&pool->generation, memory_order_acquire);
			if (now != seen) {
				return now;
			}
		}
		double time = tbMicroseconds();
		if (time > yieldFrom) {
			sched_yield();
		}
		if (time > until) {
			if (!atomic_load_explicit(&pool->stepping, memory_order_relaxed)) {
				break;
			}
			until = time + TB_SPIN_MICROSECONDS;
		}
	}
	return now;
}

static void* tbPoolThreadMain(void* arg)
{
	tbPoolThread* self = arg;
	tbTaskPool* pool = self->pool;
	uint32_t seen = 0;
	// Ends when the world is destroyed (quit), the only way out of this loop.
	for (;;) {
		uint32_t now = tbSpinForLoop(pool, seen);
		if (now == seen) {
			pthread_mutex_lock(&pool->mutex);
			atomic_fetch_add(&pool->sleepers, 1);
			while ((now = atomic_load(&pool->generation)) == seen && !atomic_load(&pool->quit)) {
				pthread_cond_wait(&pool->wake, &pool->mutex);
			}
			atomic_fetch_sub(&pool->sleepers, 1);
			pthread_mutex_unlock(&pool->mutex);
		}
		if (atomic_load(&pool->quit)) {
			return NULL;
		}
		seen = now;
		tbRunRanges(pool, now, self->workerIndex);
	}
}

bool tbTaskPool_Create(tbWorld* w, int workerCount)
{
	tbTaskPool* pool = tbTryAlloc(sizeof(tbTaskPool));
	if (pool == NULL) {
		tbSetError("tbCreateWorld: out of memory for the thread pool");
		return false;
	}
	memset(pool, 0, sizeof *pool);
	pthread_mutex_init(&pool->mutex, NULL);
	pthread_cond_init(&pool->wake, NULL);
	pthread_cond_init(&pool->done, NULL);
	atomic_init(&pool->generation, 0u);
	for (int k = 0; k < TB_MAX_WORKERS; ++k) {
		atomic_init(&pool->shares[k].ticket, 0u);
	}
	atomic_init(&pool->doneRanges, 0);
	atomic_init(&pool->sleepers, 0);
	atomic_init(&pool->callerAsleep, false);
	atomic_init(&pool->stepping, false);
	atomic_init(&pool->quit, false);
	w->pool = pool;
	for (int i = 0; i < workerCount - 1; ++i) {
		tbPoolThread* t = pool->threads + i;
		t->pool = pool;
		t->workerIndex = i + 1;
		if (pthread_create(&t->thread, NULL, tbPoolThreadMain, t) != 0) {
			tbSetError("tbCreateWorld: could not start worker thread %d of def->workerCount %d",
			           i + 1, workerCount);
			tbTaskPool_Destroy(w);
			return false;
		}
		pool->threadCount = i + 1;
	}
	return true;
}

void tbTaskPool_Destroy(tbWorld* w)
{
	tbTaskPool* pool = w->pool;
	if (pool == NULL) {
		return;
	}
	pthread_mutex_lock(&pool->mutex);
	atomic_store(&pool->quit, true);
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->mutex);
	for (int i = 0; i < pool->threadCount; ++i) {
		pthread_join(pool->threads[i].thread, NULL);
	}
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->wake);
	pthread_mutex_destroy(&pool->mutex);
	tbFree(pool, sizeof(tbTaskPool));
	w->pool = NULL;
}

// One loop on the pool: published, run by the caller as worker 0 alongside the threads, and
// waited for (a look at the count for TB_WAIT_MICROSECONDS, then the condition variable).
static void tbTaskPool_Run(tbTaskPool* pool, tbTaskCallback* task, int itemCount, int minRange,
                           int rangesPerWorker, void* taskContext)
{
	int workers = pool->threadCount + 1;
	int ranges = workers * rangesPerWorker;
	int most = itemCount / (minRange > 0 ? minRange : 1);
	ranges = ranges < most ? ranges : most;
	ranges = ranges > 0 ? ranges : 1;
	pool->task = task;
	pool->taskContext = taskContext;
	pool->itemCount = itemCount;
	pool->rangeSize = (itemCount + ranges - 1) / ranges;
	int count = (itemCount + pool->rangeSize - 1) / pool->rangeSize;
	atomic_store_explicit(&pool->doneRanges, 0, memory_order_relaxed);
	uint32_t generation = atomic_load_explicit(&pool->generation, memory_order_relaxed) + 1u;
	// Worker k's share: ranges [k count / workers, (k + 1) count / workers).
	for (int k = 0; k < workers; ++k) {
		int first = k * count / workers, end = (k + 1) * count / workers;
		atomic_store_explicit(&pool->shares[k].ticket, TB_TICKET(generation, end, first),
		                      memory_order_release);
	}
	atomic_store(&pool->generation, generation);
	if (atomic_load(&pool->sleepers) > 0) {
		pthread_mutex_lock(&pool->mutex);
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->mutex);
	}
	tbRunRanges(pool, generation, 0);
	if (atomic_load_explicit(&pool->doneRanges, memory_order_acquire) == count) {
		return;
	}
	double start = tbMicroseconds();
	double until = start + TB_WAIT_MICROSECONDS, yieldFrom = start + TB_YIELD_MICROSECONDS;
	// Bounded by the clock; the guard bounds it by a count too.
	for (int guard = 0; guard < (1 << 26); ++guard) {
		for (int look = 0; look < TB_SPIN_LOOKS_PER_CLOCK; ++look) {
			TB_PAUSE();
			if (atomic_load_explicit(&pool->doneRanges, memory_order_acquire) == count) {
				return;
			}
		}
		double time = tbMicroseconds();
		if (time > until) {
			break;
		}
		if (time > yieldFrom) {
			sched_yield();
		}
	}
	pthread_mutex_lock(&pool->mutex);
	atomic_store(&pool->callerAsleep, true);
	while (atomic_load(&pool->doneRanges) != count) {
		pthread_cond_wait(&pool->done, &pool->mutex);
	}
	atomic_store(&pool->callerAsleep, false);
	pthread_mutex_unlock(&pool->mutex);
}

void tbTaskPool_SetStepping(tbWorld* w, bool stepping)
{
	if (w->pool != NULL) {
		atomic_store_explicit(&w->pool->stepping, stepping, memory_order_relaxed);
	}
}

static void tbParallelForIn(tbWorld* w, tbTaskCallback* task, int itemCount, int minRange,
                            int rangesPerWorker, void* taskContext)
{
	if (itemCount <= 0) {
		return;
	}
	if (w->def.enqueueTask != NULL) {
		void* userTask = w->def.enqueueTask(task, itemCount, minRange > 0 ? minRange : 1,
		                                    taskContext, w->def.userTaskContext);
		if (userTask != NULL) {
			w->def.finishTask(userTask, w->def.userTaskContext);
		}
		return;
	}
	if (w->pool == NULL || itemCount <= minRange) {
		task(0, itemCount, 0, taskContext);
		return;
	}
	tbTaskPool_Run(w->pool, task, itemCount, minRange, rangesPerWorker, taskContext);
}

void tbParallelFor(tbWorld* w, tbTaskCallback* task, int itemCount, int minRange, void* taskContext)
{
	tbParallelForIn(w, task, itemCount, minRange, TB_RANGES_PER_WORKER, taskContext);
}

void tbParallelForUneven(tbWorld* w, tbTaskCallback* task, int itemCount, int minRange,
                         void* taskContext)
{
	tbParallelForIn(w, task, itemCount, minRange, TB_UNEVEN_RANGES_PER_WORKER, taskContext);
}

// The solver's view of the same (dynamics/ knows no world): tbSolverDef.parallelFor.
void tbSolverParallelFor(tbSolverTaskFcn* task, int itemCount, int minRange, void* taskContext,
                         void* context)
{
	tbParallelFor(context, task, itemCount, minRange, taskContext);
}

void tbSolverParallelForUneven(tbSolverTaskFcn* task, int itemCount, int minRange,
                               void* taskContext, void* context)
{
	tbParallelForUneven(context, task, itemCount, minRange, taskContext);
}

int tbCountBlocks(tbWorld* w, tbTaskCallback* count, int itemCount, int blockSize)
{
	int blocks = (itemCount + blockSize - 1) / blockSize;
	tbGrowArray((void**)&w->listBlockCounts, &w->listBlockCapacity, blocks, sizeof(int));
	tbParallelFor(w, count, blocks, 1, w);
	int total = 0;
	for (int block = 0; block < blocks; ++block) {
		int n = w->listBlockCounts[block];
		w->listBlockCounts[block] = total;
		total += n;
	}
	return total;
}
