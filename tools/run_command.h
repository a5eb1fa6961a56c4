// `tumble run` (simulate a scene file headless) and `tumble scenes` (list the bundled scenes).
#pragma once

#include <tumble/scene.h>

#include <stdio.h>

/// The world's energy and momentum at one moment (dynamic bodies; static and kinematic bodies have
/// infinite mass and are left out).
typedef struct tbEnergyRow
{
	double kinetic;            ///< sum of 1/2 P.v + 1/2 L.w, J
	double potential;          ///< sum of -m s g . c (s the gravity scale, c the centre of mass), J
	double total;              ///< kinetic + potential, J
	double momentum[3];        ///< sum of m v, kg m/s
	double angularMomentum[3]; ///< about the world origin: sum of c x m v + L, kg m^2/s
} tbEnergyRow;

/// A whole number in [1, max] (for --steps, --every, ...); false when `text` is not one.
bool tbParseCount(const char* text, long long max, long long* out);

/// Whether argv[*i] is the option `name` as "--name value" or "--name=value"; *value is the value
/// (argv[*i] advanced past it), or null when missing.
bool tbMatchOption(const char* arg, const char* name, int* i, int argc, char** argv,
                   const char** value);

/// Measure the energy and momentum of a scene's world now.
void tbMeasureEnergy(const tbScene* scene, tbEnergyRow* row);

/// The energy CSV: "step,time,kinetic,potential,total,px,py,pz,lx,ly,lz" and one row per frame.
void tbWriteEnergyHeader(FILE* out);
void tbWriteEnergyRow(FILE* out, long long step, double time, const tbEnergyRow* row);

/// The trajectory CSV's header line (`tumble run --out`), newline included.
#define TB_TRAJECTORY_HEADER "step,body,name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"

/// One trajectory CSV row per body of the scene at `step`; false when a state is not finite.
bool tbWriteFrame(FILE* out, const tbScene* scene, long long step);

/// tumble run SCENE [--steps N | --seconds T] [--json] [--out FILE.csv] [--energy FILE.csv]
/// [--every K] [--threads N].
/// argv[0] is "run". Returns the exit status: 0, 1 for a bad scene, 2 for usage errors.
int tbRunSceneCommand(int argc, char** argv);
void tbRunSceneHelp(FILE* out);

/// tumble scenes: one line per bundled scene (name, bodies, seconds, description).
int tbListScenesCommand(int argc, char** argv);
void tbListScenesHelp(FILE* out);
