// Tasks: the step's parallel loops over ranges, on the game's job system or a small pool of
// threads.
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "world_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TB_PAUSE() _mm_pause()
#else
#define TB_PAUSE() ((void)0)
#endif

// How many times a waiting thread looks at its flag before it sleeps on the condition variable:
// the step's loops follow each other within microseconds, and a thread that went to sleep between
// two of them costs a wake-up (a system call) on each. Bounded, so an idle world's threads sleep.
#define TB_SPIN_LOOKS 2000

// Ranges per worker and loop: a few more than one, so that a worker that was late to start or met
// slower items is helped by the others (ranges are taken from a shared counter).
#define TB_RANGES_PER_WORKER 4

typedef struct tbTaskPool tbTaskPool;

typedef struct tbPoolThread
{
	tbTaskPool* pool;
	pthread_t thread;
	int workerIndex;
} tbPoolThread;

// The ticket of a loop: its generation (bits 32-63), its range count (16-31) and the next range to
// take (0-15), one atomic word, so that a thread that comes late can only take a range of the loop
// it saw (compare-and-swap) and never one of the next loop.
#define TB_TICKET(generation, count, next)                                                         \
	(((uint64_t)(generation) << 32) | ((uint64_t)(count) << 16) | (uint64_t)(next))
#define TB_MAX_RANGES 0xffff

// The pool: workerCount - 1 threads; the caller of tbWorld_Step is worker 0. One loop at a time:
// the caller publishes it (a new ticket), takes ranges itself, and waits until every range is done
// (not for every thread: one the system has not scheduled yet simply finds none left).
struct tbTaskPool
{
	pthread_mutex_t mutex;
	pthread_cond_t wake; // threads sleep here for a new loop
	pthread_cond_t done; // the caller sleeps here for the last range
	tbPoolThread threads[TB_MAX_WORKERS];
	int threadCount;
	// The loop being run, written by the caller before it publishes the ticket, read by a thread
	// only after it took a range of that ticket (so never while the caller writes the next one).
	tbTaskCallback* task;
	void* taskContext;
	int itemCount, rangeSize;
	_Alignas(64) atomic_uint_fast64_t ticket;
	_Alignas(64) atomic_int doneRanges;
	atomic_int sleepers;      // threads asleep on `wake`
	atomic_bool callerAsleep; // the caller asleep on `done`
	atomic_bool quit;
};

// Takes ranges of the loop with generation `generation` until none is left.
static void tbRunRanges(tbTaskPool* pool, uint32_t generation, int workerIndex)
{
	uint64_t ticket = atomic_load_explicit(&pool->ticket, memory_order_acquire);
	// Each turn takes a range or returns; at most TB_MAX_RANGES ranges exist.
	for (int guard = 0; guard <= TB_MAX_RANGES; ++guard) {
		uint32_t count = (uint32_t)(ticket >> 16) & 0xffffu, next = (uint32_t)ticket & 0xffffu;
		if ((uint32_t)(ticket >> 32) != generation || next >= count) {
			return;
		}
		if (!atomic_compare_exchange_weak_explicit(&pool->ticket, &ticket, ticket + 1u,
		                                           memory_order_acq_rel, memory_order_acquire)) {
			continue; // another took it (ticket now holds the word as it is)
		}
		int start = (int)next * pool->rangeSize;
		int end =
		    start + pool->rangeSize < pool->itemCount ? start + pool->rangeSize : pool->itemCount;
		pool->task(start, end, workerIndex, pool->taskContext);
		// seq_cst with the caller's store to callerAsleep: one of the two sees the other.
		if (atomic_fetch_add(&pool->doneRanges, 1) + 1 == (int)count &&
		    atomic_load(&pool->callerAsleep)) {
			pthread_mutex_lock(&pool->mutex);
			pthread_cond_signal(&pool->done);
			pthread_mutex_unlock(&pool->mutex);
		}
		ticket = atomic_load_explicit(&pool->ticket, memory_order_acquire);
	}
}

static void* tbPoolThreadMain(void* arg)
{
	tbPoolThread* self = arg;
	tbTaskPool* pool = self->pool;
	uint32_t seen = 0;
	// Ends when the world is destroyed (quit), the only way out of this loop.
	for (;;) {
		uint32_t now = (uint32_t)(atomic_load_explicit(&pool->ticket, memory_order_acquire) >> 32);
		for (int look = 0; now == seen && look < TB_SPIN_LOOKS; ++look) {
			TB_PAUSE();
			now = (uint32_t)(atomic_load_explicit(&pool->ticket, memory_order_acquire) >> 32);
		}
		if (now == seen) {
			pthread_mutex_lock(&pool->mutex);
			atomic_fetch_add(&pool->sleepers, 1);
			while ((now = (uint32_t)(atomic_load(&pool->ticket) >> 32)) == seen &&
			       !atomic_load(&pool->quit)) {
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
	atomic_init(&pool->ticket, 0u);
	atomic_init(&pool->doneRanges, 0);
	atomic_init(&pool->sleepers, 0);
	atomic_init(&pool->callerAsleep, false);
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
// waited for (a short look, then the condition variable).
static void tbTaskPool_Run(tbTaskPool* pool, tbTaskCallback* task, int itemCount, int minRange,
                           void* taskContext)
{
	int ranges = (pool->threadCount + 1) * TB_RANGES_PER_WORKER;
	int most = itemCount / (minRange > 0 ? minRange : 1);
	ranges = ranges < most ? ranges : most;
	ranges = ranges > 0 ? ranges : 1;
	pool->task = task;
	pool->taskContext = taskContext;
	pool->itemCount = itemCount;
	pool->rangeSize = (itemCount + ranges - 1) / ranges;
	int count = (itemCount + pool->rangeSize - 1) / pool->rangeSize;
	atomic_store_explicit(&pool->doneRanges, 0, memory_order_relaxed);
	uint32_t generation = (uint32_t)(atomic_load(&pool->ticket) >> 32) + 1u;
	atomic_store(&pool->ticket, TB_TICKET(generation, count, 0));
	if (atomic_load(&pool->sleepers) > 0) {
		pthread_mutex_lock(&pool->mutex);
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->mutex);
	}
	tbRunRanges(pool, generation, 0);
	for (int look = 0; look < TB_SPIN_LOOKS; ++look) {
		if (atomic_load_explicit(&pool->doneRanges, memory_order_acquire) == count) {
			return;
		}
		TB_PAUSE();
	}
	pthread_mutex_lock(&pool->mutex);
	atomic_store(&pool->callerAsleep, true);
	while (atomic_load(&pool->doneRanges) != count) {
		pthread_cond_wait(&pool->done, &pool->mutex);
	}
	atomic_store(&pool->callerAsleep, false);
	pthread_mutex_unlock(&pool->mutex);
}

void tbParallelFor(tbWorld* w, tbTaskCallback* task, int itemCount, int minRange, void* taskContext)
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
	tbTaskPool_Run(w->pool, task, itemCount, minRange, taskContext);
}

// The solver's view of the same (dynamics/ knows no world): tbSolverDef.parallelFor.
void tbSolverParallelFor(tbSolverTaskFcn* task, int itemCount, int minRange, void* taskContext,
                         void* context)
{
	tbParallelFor(context, task, itemCount, minRange, taskContext);
}
