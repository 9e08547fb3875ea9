/* probe(): which platforms and devices the OpenCL loader offers and whether a context can be created on them;
 * on a machine without OpenCL it says why there is none. */
#include <node_api.h>
#include <stdio.h>
#include <string.h>

#include "cl_loader.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

napi_value Probe(napi_env env, napi_callback_info info);

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

napi_value Probe(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result, platforms_out;
  napi_create_object(env, &result);
  napi_create_array(env, &platforms_out);
  napi_set_named_property(env, result, "platforms", platforms_out);

  const char *load_error = NULL;
  const ClApi *cl = cl_api(&load_error);
  if (!cl) return fail(env, result, load_error);

  cl_platform_id platforms[MAX_PLATFORMS];
  cl_uint nplatforms = 0;
  cl_int err = cl->GetPlatformIDs(MAX_PLATFORMS, platforms, &nplatforms);
  if (err != CL_SUCCESS || nplatforms == 0) {
    char message[96];
    snprintf(message, sizeof message, "no OpenCL platform found (clGetPlatformIDs returned %d)", err);
    return fail(env, result, message);
  }

  int contexts_ok = 0;
  char last_error[128] = "no OpenCL device found";
  for (cl_uint p = 0; p < nplatforms && p < MAX_PLATFORMS; p++) {
    char pname[256] = "";
    cl->GetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    napi_value platform_out, devices_out;
    napi_create_object(env, &platform_out);
    napi_create_array(env, &devices_out);
    napi_set_named_property(env, platform_out, "name", str(env, pname));
    napi_set_named_property(env, platform_out, "devices", devices_out);
    napi_set_element(env, platforms_out, p, platform_out);

    cl_device_id devices[MAX_DEVICES];
    cl_uint ndevices = 0;
    if (cl->GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devices, &ndevices) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < ndevices && d < MAX_DEVICES; d++) {
      char dname[256] = "";
      cl_device_type dtype = 0;
      cl->GetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
      cl->GetDeviceInfo(devices[d], CL_DEVICE_TYPE_INFO, sizeof dtype, &dtype, NULL);
      napi_value device_out;
      napi_create_object(env, &device_out);
      napi_set_named_property(env, device_out, "name", str(env, dname));
      napi_set_named_property(env, device_out, "type", str(env, type_name(dtype)));
      napi_set_element(env, devices_out, d, device_out);
    }
    if (ndevices == 0) continue;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platforms[p], 0};
    cl_int cerr = CL_SUCCESS;
    cl_context ctx = cl->CreateContext(props, ndevices, devices, NULL, NULL, &cerr);
    if (ctx && cerr == CL_SUCCESS) {
      contexts_ok++;
      cl->ReleaseContext(ctx);
    } else {
      snprintf(last_error, sizeof last_error, "clCreateContext failed on %s (%d)", pname, cerr);
    }
  }
  if (contexts_ok == 0) return fail(env, result, last_error);
  napi_set_named_property(env, result, "ok", boolean(env, 1));
  return result;
}

