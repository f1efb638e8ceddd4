// The benchmark's FCL peer: a C interface to FCL's triangle-mesh queries, compiled by
// benches/build.rs only when FCL is installed (scripts/install_fcl.sh). Models are
// BVHModel<OBBRSS<double>> (FCL's strongest general mesh bounding volume: its OBB for
// overlap tests, its RSS for distances). The library itself never depends on FCL.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/continuous_collision.h>
#include <fcl/narrowphase/distance.h>

namespace {
using S = double;
using Model = fcl::BVHModel<fcl::OBBRSS<S>>;
using Geometry = fcl::CollisionGeometry<S>;

const Geometry* geometry(const void* model) { return static_cast<const Model*>(model); }

// rot: 9 numbers, row-major; trans: 3 numbers.
fcl::Transform3<S> transform(const double* rot, const double* trans) {
  fcl::Matrix3<S> r;
  r << rot[0], rot[1], rot[2], rot[3], rot[4], rot[5], rot[6], rot[7], rot[8];
  fcl::Transform3<S> tf = fcl::Transform3<S>::Identity();
  tf.linear() = r;
  tf.translation() = fcl::Vector3<S>(trans[0], trans[1], trans[2]);
  return tf;
}
}  // namespace

extern "C" {

// A model from a triangle soup: `coords` holds 9 numbers per triangle (three vertices).
// Triangle k gets FCL primitive id k. Returns null on failure.
void* fcl_shim_model_new(const double* coords, size_t triangles) {
  try {
    std::vector<fcl::Vector3<S>> points;
    std::vector<fcl::Triangle> tris;
    points.reserve(3 * triangles);
    tris.reserve(triangles);
    for (size_t k = 0; k < triangles; ++k) {
      for (int v = 0; v < 3; ++v) {
        const double* p = coords + 9 * k + 3 * v;
        points.emplace_back(p[0], p[1], p[2]);
      }
      tris.emplace_back(3 * k, 3 * k + 1, 3 * k + 2);
    }
    auto* model = new Model();
    if (model->beginModel(static_cast<int>(triangles), static_cast<int>(3 * triangles)) != fcl::BVH_OK ||
        model->addSubModel(points, tris) != fcl::BVH_OK || model->endModel() != fcl::BVH_OK) {
      delete model;
      return nullptr;
    }
    model->computeLocalAABB();
    return model;
  } catch (...) {
    return nullptr;
  }
}

void fcl_shim_model_free(void* model) { delete static_cast<Model*>(model); }

// Collide: stops after `max_contacts` intersecting triangle pairs (1: first contact; a large
// number: all contacts). Returns the number of pairs found; copies up to `capacity` of them
// (id1, id2) into `pairs` when it is not null.
size_t fcl_shim_collide(const void* m1, const double* rot1, const double* trans1, const void* m2,
                        const double* rot2, const double* trans2, size_t max_contacts, int32_t* pairs,
                        size_t capacity) {
  fcl::CollisionRequest<S> request(max_contacts, /*enable_contact=*/false);
  fcl::CollisionResult<S> result;
  fcl::collide(geometry(m1), transform(rot1, trans1), geometry(m2),
               transform(rot2, trans2), request, result);
  const size_t n = result.numContacts();
  if (pairs != nullptr) {
    for (size_t k = 0; k < n && k < capacity; ++k) {
      const auto& c = result.getContact(k);
      pairs[2 * k] = static_cast<int32_t>(c.b1);
      pairs[2 * k + 1] = static_cast<int32_t>(c.b2);
    }
  }
  return n;
}

// Exact distance (rel_err = abs_err = 0), as rapidpqp's default distance request.
double fcl_shim_distance(const void* m1, const double* rot1, const double* trans1, const void* m2,
                         const double* rot2, const double* trans2) {
  fcl::DistanceRequest<S> request(/*enable_nearest_points=*/false, /*enable_signed_distance=*/false,
                                  /*rel_err=*/0.0, /*abs_err=*/0.0);
  fcl::DistanceResult<S> result;
  fcl::distance(geometry(m1), transform(rot1, trans1), geometry(m2),
                transform(rot2, trans2), request, result);
  return result.min_distance;
}

// Continuous collision of model 1 moving from (rot1a, trans1a) to (rot1b, trans1b) against a
// static model 2, by FCL's conservative advancement (CCDC_CONSERVATIVE_ADVANCEMENT, defined for
// RSS and OBBRSS meshes). `motion`: 0 CCDM_TRANS, 1 CCDM_LINEAR (translation linear, rotation
// about the model's origin at a constant rate), 2 CCDM_SCREW. Returns the time of contact in
// [0, 1] (1 when free) and sets *collide; -1 when FCL threw.
double fcl_shim_continuous(const void* m1, const double* rot1a, const double* trans1a, const double* rot1b,
                           const double* trans1b, const void* m2, const double* rot2, const double* trans2,
                           int motion, int* collide) {
  try {
    fcl::ContinuousCollisionRequest<S> request;
    request.ccd_motion_type = motion == 0 ? fcl::CCDM_TRANS : motion == 1 ? fcl::CCDM_LINEAR : fcl::CCDM_SCREW;
    request.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
    fcl::ContinuousCollisionResult<S> result;
    const fcl::Transform3<S> tf2 = transform(rot2, trans2);
    fcl::continuousCollide(geometry(m1), transform(rot1a, trans1a), transform(rot1b, trans1b), geometry(m2), tf2,
                           tf2, request, result);
    *collide = result.is_collide ? 1 : 0;
    return result.time_of_contact;
  } catch (...) {
    *collide = 0;
    return -1.0;
  }
}

}  // extern "C"
