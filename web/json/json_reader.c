// A small JSON reader (RFC 8259) behind the cJSON names the scene loader uses (cJSON.h): the
// WebAssembly build's stand-in for the cJSON library.
#include "cJSON.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct tbJsonReader
{
	const char* text;
	size_t length; // bytes that may be read (up to a terminator, which ends the text)
	size_t pos;
	int depth;
} tbJsonReader;

static cJSON* tbJsonNew(int type)
{
	cJSON* item = calloc(1, sizeof(cJSON));
	if (item != NULL) {
		item->type = type;
	}
	return item;
}

void cJSON_Delete(cJSON* item)
{
	// Siblings in a loop, children by recursion (depth is capped by the reader).
	while (item != NULL) {
		cJSON* next = item->next;
		cJSON_Delete(item->child);
		free(item->valuestring);
		free(item->string);
		free(item);
		item = next;
	}
}

static int tbJsonPeek(const tbJsonReader* r)
{
	return r->pos < r->length ? (unsigned char)r->text[r->pos] : 0;
}

// White space as cJSON reads it: every byte from 1 to 32 (control characters included).
static void tbJsonSkipSpace(tbJsonReader* r)
{
	while (r->pos < r->length && r->text[r->pos] != '\0' && (unsigned char)r->text[r->pos] <= 32) {
		r->pos += 1;
	}
}

static cJSON* tbJsonValue(tbJsonReader* r);

// Four hex digits at r->pos, or -1.
static long tbJsonHex4(tbJsonReader* r)
{
	long v = 0;
	for (int i = 0; i < 4; ++i) {
		int c = tbJsonPeek(r);
		int d = c >= '0' && c <= '9'   ? c - '0'
		        : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10
		                               : -1;
		if (d < 0) {
			return -1;
		}
		v = v * 16 + d;
		r->pos += 1;
	}
	return v;
}

// Writes the code point as UTF-8; returns the byte count.
static size_t tbJsonUtf8(unsigned long cp, char* out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	} else if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	} else if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

// A string at r->pos (the opening quote); the decoded text, or NULL with r->pos at the fault.
static char* tbJsonString(tbJsonReader* r)
{
	r->pos += 1;
	size_t start = r->pos;
	// The decoded text is never longer than the escaped one.
	size_t end = start;
	while (end < r->length && r->text[end] != '"' && r->text[end] != '\0') {
		end += r->text[end] == '\\' && end + 1 < r->length ? 2 : 1;
	}
	if (end >= r->length || r->text[end] != '"') {
		r->pos = end;
		return NULL;
	}
	char* out = malloc(end - start + 1);
	if (out == NULL) {
		return NULL;
	}
	size_t n = 0;
	while (r->pos < end) {
		char c = r->text[r->pos];
		if (c != '\\') {
			out[n++] = c;
			r->pos += 1;
			continue;
		}
		r->pos += 1;
		char e = r->text[r->pos];
		r->pos += 1;
		char simple = e == 'b'                            ? '\b'
		              : e == 'f'                          ? '\f'
		              : e == 'n'                          ? '\n'
		              : e == 'r'                          ? '\r'
		              : e == 't'                          ? '\t'
		              : e == '"' || e == '\\' || e == '/' ? e
		                                                  : '\0';
		if (simple != '\0') {
			out[n++] = simple;
			continue;
		}
		if (e != 'u') {
			r->pos -= 2;
			free(out);
			return NULL;
		}
		long cp = tbJsonHex4(r);
		if (cp < 0 || (cp >= 0xdc00 && cp <= 0xdfff)) {
			free(out);
			return NULL;
		}
		if (cp >= 0xd800 && cp <= 0xdbff) {
			// A surrogate pair: \uD8xx\uDCxx.
			if (r->pos + 2 > end || r->text[r->pos] != '\\' || r->text[r->pos + 1] != 'u') {
				free(out);
				return NULL;
			}
			r->pos += 2;
			long low = tbJsonHex4(r);
			if (low < 0xdc00 || low > 0xdfff) {
				free(out);
				return NULL;
			}
			cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
		}
		if (cp == 0) {
			free(out);
			return NULL;
		}
		n += tbJsonUtf8((unsigned long)cp, out + n);
	}
	out[n] = '\0';
	r->pos = end + 1;
	return out;
}

// A number: the characters a number may hold, read by strtod (as cJSON does).
static cJSON* tbJsonNumber(tbJsonReader* r)
{
	char digits[64];
	size_t n = 0;
	while (n + 1 < sizeof digits && r->pos + n < r->length && r->text[r->pos + n] != '\0' &&
	       strchr("0123456789+-eE.", r->text[r->pos + n]) != NULL) {
		digits[n] = r->text[r->pos + n];
		n += 1;
	}
	digits[n] = '\0';
	char* after = NULL;
	double v = strtod(digits, &after);
	if (after == digits) {
		return NULL;
	}
	cJSON* item = tbJsonNew(cJSON_Number);
	if (item == NULL) {
		return NULL;
	}
	item->valuedouble = v;
	item->valueint = v >= (double)INT_MAX ? INT_MAX : v <= (double)INT_MIN ? INT_MIN : (int)v;
	r->pos += (size_t)(after - digits);
	return item;
}

// The members of an array ('[') or object ('{') at r->pos.
static cJSON* tbJsonList(tbJsonReader* r, bool object)
{
	if (r->depth >= CJSON_NESTING_LIMIT) {
		return NULL;
	}
	r->depth += 1;
	char close = object ? '}' : ']';
	cJSON* list = tbJsonNew(object ? cJSON_Object : cJSON_Array);
	if (list == NULL) {
		return NULL;
	}
	r->pos += 1;
	tbJsonSkipSpace(r);
	if (tbJsonPeek(r) == close) {
		r->pos += 1;
		r->depth -= 1;
		return list;
	}
	cJSON* last = NULL;
	// One member a turn; each turn reads at least one byte, so the text's length bounds it.
	for (size_t guard = 0; guard <= r->length; ++guard) {
		char* key = NULL;
		if (object) {
			tbJsonSkipSpace(r);
			if (tbJsonPeek(r) != '"' || (key = tbJsonString(r)) == NULL) {
				cJSON_Delete(list);
				return NULL;
			}
			tbJsonSkipSpace(r);
			if (tbJsonPeek(r) != ':') {
				free(key);
				cJSON_Delete(list);
				return NULL;
			}
			r->pos += 1;
		}
		cJSON* item = tbJsonValue(r);
		if (item == NULL) {
			free(key);
			cJSON_Delete(list);
			return NULL;
		}
		item->string = key;
		if (last == NULL) {
			list->child = item;
		} else {
			last->next = item;
			item->prev = last;
		}
		last = item;
		// cJSON keeps the last child in the first one's prev.
		list->child->prev = last;
		tbJsonSkipSpace(r);
		int c = tbJsonPeek(r);
		if (c == ',') {
			r->pos += 1;
			continue;
		}
		if (c == close) {
			r->pos += 1;
			r->depth -= 1;
			return list;
		}
		cJSON_Delete(list);
		return NULL;
	}
	cJSON_Delete(list);
	return NULL;
}

static bool tbJsonWord(tbJsonReader* r, const char* word)
{
	size_t n = strlen(word);
	if (r->pos + n <= r->length && strncmp(r->text + r->pos, word, n) == 0) {
		r->pos += n;
		return true;
	}
	return false;
}

static cJSON* tbJsonValue(tbJsonReader* r)
{
	tbJsonSkipSpace(r);
	int c = tbJsonPeek(r);
	if (c == '{' || c == '[') {
		return tbJsonList(r, c == '{');
	}
	if (c == '"') {
		char* s = tbJsonString(r);
		cJSON* item = s != NULL ? tbJsonNew(cJSON_String) : NULL;
		if (item == NULL) {
			free(s);
			return NULL;
		}
		item->valuestring = s;
		return item;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		return tbJsonNumber(r);
	}
	if (tbJsonWord(r, "true")) {
		return tbJsonNew(cJSON_True);
	}
	if (tbJsonWord(r, "false")) {
		return tbJsonNew(cJSON_False);
	}
	if (tbJsonWord(r, "null")) {
		return tbJsonNew(cJSON_NULL);
	}
	return NULL;
}

cJSON* cJSON_ParseWithLengthOpts(const char* value, size_t buffer_length,
                                 const char** return_parse_end, cJSON_bool require_null_terminated)
{
	if (value == NULL || buffer_length == 0) {
		if (return_parse_end != NULL) {
			*return_parse_end = value;
		}
		return NULL;
	}
	tbJsonReader r = {value, buffer_length, 0, 0};
	// A UTF-8 byte order mark is skipped, as cJSON does.
	if (buffer_length >= 3 && strncmp(value, "\xEF\xBB\xBF", 3) == 0) {
		r.pos = 3;
	}
	cJSON* root = tbJsonValue(&r);
	if (root != NULL && require_null_terminated) {
		tbJsonSkipSpace(&r);
		if (tbJsonPeek(&r) != 0) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	if (return_parse_end != NULL) {
		*return_parse_end = value + (r.pos < buffer_length ? r.pos : buffer_length - 1);
	}
	return root;
}

int cJSON_GetArraySize(const cJSON* array)
{
	int n = 0;
	for (const cJSON* c = array != NULL ? array->child : NULL; c != NULL && n < INT_MAX;
	     c = c->next) {
		n += 1;
	}
	return n;
}

cJSON* cJSON_GetArrayItem(const cJSON* array, int index)
{
	cJSON* c = array != NULL && index >= 0 ? array->child : NULL;
	for (int i = 0; c != NULL && i < index; ++i) {
		c = c->next;
	}
	return c;
}

cJSON* cJSON_GetObjectItemCaseSensitive(const cJSON* object, const char* string)
{
	if (object == NULL || string == NULL) {
		return NULL;
	}
	cJSON* c = object->child;
	while (c != NULL && (c->string == NULL || strcmp(c->string, string) != 0)) {
		c = c->next;
	}
	return c;
}

cJSON* cJSON_DetachItemFromObjectCaseSensitive(cJSON* object, const char* string)
{
	cJSON* item = cJSON_GetObjectItemCaseSensitive(object, string);
	if (item == NULL) {
		return NULL;
	}
	if (item == object->child) {
		object->child = item->next;
		if (item->next != NULL) {
			item->next->prev = item->prev; // the last child stays in the first one's prev
		}
	} else {
		item->prev->next = item->next;
		if (item->next != NULL) {
			item->next->prev = item->prev;
		} else {
			object->child->prev = item->prev;
		}
	}
	item->next = NULL;
	item->prev = NULL;
	return item;
}

cJSON_bool cJSON_AddItemToArray(cJSON* array, cJSON* item)
{
	if (array == NULL || item == NULL || array == item) {
		return 0;
	}
	item->next = NULL;
	if (array->child == NULL) {
		array->child = item;
		item->prev = item;
	} else {
		cJSON* last = array->child->prev;
		last->next = item;
		item->prev = last;
		array->child->prev = item;
	}
	return 1;
}

cJSON_bool cJSON_IsFalse(const cJSON* item)
{
	return item != NULL && item->type == cJSON_False;
}

cJSON_bool cJSON_IsTrue(const cJSON* item)
{
	return item != NULL && item->type == cJSON_True;
}

cJSON_bool cJSON_IsBool(const cJSON* item)
{
	return item != NULL && (item->type == cJSON_True || item->type == cJSON_False);
}

cJSON_bool cJSON_IsNull(const cJSON* item)
{
	return item != NULL && item->type == cJSON_NULL;
}

cJSON_bool cJSON_IsNumber(const cJSON* item)
{
	return item != NULL && item->type == cJSON_Number;
}

cJSON_bool cJSON_IsString(const cJSON* item)
{
	return item != NULL && item->type == cJSON_String;
}

cJSON_bool cJSON_IsArray(const cJSON* item)
{
	return item != NULL && item->type == cJSON_Array;
}

cJSON_bool cJSON_IsObject(const cJSON* item)
{
	return item != NULL && item->type == cJSON_Object;
}
