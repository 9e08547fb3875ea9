/* Asks the OpenCL ICD loader, opened at run time with dlopen, which platforms and devices exist and
 * whether a context can be created on them. Loading at run time keeps the addon buildable and
 * loadable on machines without OpenCL; it then reports why there is no context. */
#include <dlfcn.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_device_type;
typedef intptr_t cl_context_properties;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;

#define CL_SUCCESS 0
#define CL_DEVICE_TYPE_CPU (1 << 1)
#define CL_DEVICE_TYPE_GPU (1 << 2)
#define CL_DEVICE_TYPE_ACCELERATOR (1 << 3)
#define CL_DEVICE_TYPE_ALL 0xFFFFFFFF
#define CL_PLATFORM_NAME 0x0902
#define CL_DEVICE_TYPE_INFO 0x1000
#define CL_DEVICE_NAME 0x102B
#define CL_CONTEXT_PLATFORM 0x1084
#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

typedef cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
typedef cl_int (*GetPlatformInfo)(cl_platform_id, cl_uint, size_t, void *, size_t *);
typedef cl_int (*GetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
typedef cl_int (*GetDeviceInfo)(cl_device_id, cl_uint, size_t, void *, size_t *);
typedef cl_context (*CreateContext)(const cl_context_properties *, cl_uint, const cl_device_id *, void *, void *, cl_int *);
typedef cl_int (*ReleaseContext)(cl_context);

static napi_value str(napi_env env, const char *s) {
  napi_value v;
  napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v);
  return v;
}

static napi_value boolean(napi_env env, int b) {
  napi_value v;
  napi_get_boolean(env, b, &v);
  return v;
}

static napi_value fail(napi_env env, napi_value result, const char *message) {
  napi_set_named_property(env, result, "ok", boolean(env, 0));
  napi_set_named_property(env, result, "error", str(env, message));
  return result;
}

static const char *type_name(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  return "OTHER";
}

static napi_value Probe(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result, platforms_out;
  napi_create_object(env, &result);
  napi_create_array(env, &platforms_out);
  napi_set_named_property(env, result, "platforms", platforms_out);

  void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return fail(env, result, "no OpenCL ICD loader (libOpenCL.so.1) installed");

  GetPlatformIDs getPlatformIDs = (GetPlatformIDs)dlsym(lib, "clGetPlatformIDs");
  GetPlatformInfo getPlatformInfo = (GetPlatformInfo)dlsym(lib, "clGetPlatformInfo");
  GetDeviceIDs getDeviceIDs = (GetDeviceIDs)dlsym(lib, "clGetDeviceIDs");
  GetDeviceInfo getDeviceInfo = (GetDeviceInfo)dlsym(lib, "clGetDeviceInfo");
  CreateContext createContext = (CreateContext)dlsym(lib, "clCreateContext");
  ReleaseContext releaseContext = (ReleaseContext)dlsym(lib, "clReleaseContext");
  if (!getPlatformIDs || !getPlatformInfo || !getDeviceIDs || !getDeviceInfo || !createContext || !releaseContext) {
    return fail(env, result, "OpenCL loader lacks core entry points");
  }

  cl_platform_id platforms[MAX_PLATFORMS];
  cl_uint nplatforms = 0;
  cl_int err = getPlatformIDs(MAX_PLATFORMS, platforms, &nplatforms);
  if (err != CL_SUCCESS || nplatforms == 0) {
    char message[96];
    snprintf(message, sizeof message, "no OpenCL platform found (clGetPlatformIDs returned %d)", err);
    return fail(env, result, message);
  }

  int contexts_ok = 0;
  char last_error[128] = "no OpenCL device found";
  for (cl_uint p = 0; p < nplatforms && p < MAX_PLATFORMS; p++) {
    char pname[256] = "";
    getPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    napi_value platform_out, devices_out;
    napi_create_object(env, &platform_out);
    napi_create_array(env, &devices_out);
    napi_set_named_property(env, platform_out, "name", str(env, pname));
    napi_set_named_property(env, platform_out, "devices", devices_out);
    napi_set_element(env, platforms_out, p, platform_out);

    cl_device_id devices[MAX_DEVICES];
    cl_uint ndevices = 0;
    if (getDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devices, &ndevices) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < ndevices && d < MAX_DEVICES; d++) {
      char dname[256] = "";
      cl_device_type dtype = 0;
      getDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
      getDeviceInfo(devices[d], CL_DEVICE_TYPE_INFO, sizeof dtype, &dtype, NULL);
      napi_value device_out;
      napi_create_object(env, &device_out);
      napi_set_named_property(env, device_out, "name", str(env, dname));
      napi_set_named_property(env, device_out, "type", str(env, type_name(dtype)));
      napi_set_element(env, devices_out, d, device_out);
    }
    if (ndevices == 0) continue;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platforms[p], 0};
    cl_int cerr = CL_SUCCESS;
    cl_context ctx = createContext(props, ndevices, devices, NULL, NULL, &cerr);
    if (ctx && cerr == CL_SUCCESS) {
      contexts_ok++;
      releaseContext(ctx);
    } else {
      snprintf(last_error, sizeof last_error, "clCreateContext failed on %s (%d)", pname, cerr);
    }
  }
  if (contexts_ok == 0) return fail(env, result, last_error);
  napi_set_named_property(env, result, "ok", boolean(env, 1));
  return result;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "probe", NAPI_AUTO_LENGTH, Probe, NULL, &fn);
  napi_set_named_property(env, exports, "probe", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
