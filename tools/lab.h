// `tumble lab` and `tumble check`: the experiments of a first mechanics course as a table, each
// entry a scene written as JSON (built with the public scene loader), a measurement and a closed
// form (docs/lab.md).
#pragma once

#include <tumble/scene.h>
#include <tumble/tumble.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TB_LAB_MAX_PARAMS 10
#define TB_LAB_NOTE_SIZE 256
// The scene text of one experiment (a chain of 40 links fits with room to spare).
#define TB_LAB_TEXT_SIZE 65536
// Standard gravity of the scenes, m/s^2 (the scene format's default).
#define TB_LAB_G 9.81

/// One parameter a course varies, with its default and the range accepted.
typedef struct tbLabParam
{
	const char* key; ///< as given on the command line: --key value
	double value;    ///< default
	double min, max; ///< accepted range, inclusive
	const char* help;
} tbLabParam;

/// JSON scene text under construction (fixed buffer; overflow is reported, never truncated
/// silently).
typedef struct tbLabText
{
	char text[TB_LAB_TEXT_SIZE];
	size_t length;
	bool overflow;
} tbLabText;

/// Append printf-style text to the scene.
void tbLabPrintf(tbLabText* t, const char* format, ...) __attribute__((format(printf, 2, 3)));

/// A trajectory in memory: x, y, z of every body at every step (for `tumble check`).
typedef struct tbLabTrace
{
	double* xyz; ///< [step][body][3]
	int bodyCount;
	long long steps; ///< recorded steps, step 0 included
	long long capacity;
} tbLabTrace;

/// A lab run: the built scene, its step and what each step records.
typedef struct tbLabRun
{
	tbScene scene;
	float dt;
	int substeps;
	long long step;     ///< steps taken
	long long maxSteps; ///< tbLabStep refuses to go past it (every loop has a cap)
	FILE* csv;          ///< trajectory rows as `tumble run --out` writes them, or null
	tbLabTrace* trace;  ///< or null
	bool failed;        ///< a step was refused, a state was not finite or the trace ran out
} tbLabRun;

/// Step the run once and record the frame; false when the step failed, NaN appeared or the cap
/// was reached.
bool tbLabStep(tbLabRun* run);

/// Position (origin), velocity and angular velocity of the i-th body of the scene, in double.
void tbLabPosition(const tbLabRun* run, int body, double out[3]);
void tbLabVelocity(const tbLabRun* run, int body, double out[3]);
void tbLabAngularVelocity(const tbLabRun* run, int body, double out[3]);

/// What a measurement found: the figure, and a line for the reader.
typedef struct tbLabMeasure
{
	double figure;
	char note[TB_LAB_NOTE_SIZE];
} tbLabMeasure;

/// One experiment: a small table entry (lab_experiments.c).
typedef struct tbLabExperiment
{
	const char* name;
	const char* summary;    ///< one line for `tumble lab`
	const char* figureName; ///< "period, s"
	tbLabParam params[TB_LAB_MAX_PARAMS];
	int paramCount;
	double tolerance; ///< relative error accepted against the closed form
	/// Write the scene's keys after the head (dt, substeps, sleep): ", \"gravity\": ...,
	/// \"bodies\": [...]".
	void (*writeScene)(const double* p, tbLabText* t);
	/// Simulated seconds the scene file asks for (the demo's run length).
	double (*seconds)(const double* p);
	/// Run and measure; false when the run gave no figure (note says why).
	bool (*measure)(tbLabRun* run, const double* p, tbLabMeasure* out);
	/// The textbook's answer.
	double (*closedForm)(const double* p);
	/// The scene's size, m: `tumble check` compares positions within a fraction of it.
	double (*size)(const double* p);
	/// Optional: where body `body` is at time t by the closed form; false where it has none.
	bool (*reference)(const double* p, double t, int body, double out[3]);
	/// Optional: a message when the parameters do not go together (radius over length), else
	/// null.
	const char* (*validate)(const double* p);
} tbLabExperiment;

/// The table.
extern const tbLabExperiment tb_labExperiments[];
extern const int tb_labExperimentCount;

/// The complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean
/// (Abramowitz and Stegun 17.6): K = pi / (2 AGM(1, sqrt(1 - k^2))).
double tbLabEllipticK(double k);

/// tumble lab [NAME [--key value ...] [--sweep KEY a:b:n] [--plot FILE.png] [--csv FILE]
/// [--scene FILE.json]]. argv[0] is "lab". Returns 0 within tolerance, 1 outside it or when the
/// run failed, 2 for usage errors.
int tbLabCommand(int argc, char** argv);
void tbLabHelp(FILE* out);

/// tumble check TRAJECTORY.csv --lab NAME [--key value ...] [--tolerance F]. argv[0] is "check".
int tbCheckCommand(int argc, char** argv);
void tbCheckHelp(FILE* out);
