//! ferrocl beside another vendor (PoCL) in one process and in clinfo: the
//! loader lists both platforms and each works.

mod common;
use common::*;
use std::path::Path;

const POCL_ICD: &str = "/etc/OpenCL/vendors/pocl.icd";

/// A vendors directory holding ferrocl and PoCL, as `make register` builds.
fn vendors_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrocl-two-vendors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("ferrocl.icd"),
        format!("{}\n", ferrocl_library().display()),
    )
    .unwrap();
    std::fs::copy(POCL_ICD, dir.join("pocl.icd")).unwrap();
    dir
}

#[test]
fn both_platforms_in_one_process_and_in_clinfo() {
    assert!(
        Path::new(POCL_ICD).exists(),
        "make test installs pocl-opencl-icd"
    );
    let dir = vendors_dir();
    std::env::set_var("OCL_ICD_VENDORS", &dir);

    let names: Vec<String> = platforms().into_iter().map(platform_name).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().any(|n| n == "FerroCL"), "{names:?}");
    assert!(
        names
            .iter()
            .any(|n| n.contains("Portable Computing Language")),
        "{names:?}"
    );

    // A marker on each platform's queue completes.
    for p in platforms() {
        let setup = Setup::new(p);
        let q = setup.queue(0);
        let mut ev = std::ptr::null_mut();
        // SAFETY: valid queue and out-pointer.
        unsafe {
            assert_eq!(
                clEnqueueMarkerWithWaitList(q, 0, std::ptr::null(), &mut ev),
                CL_SUCCESS
            );
            assert_eq!(clWaitForEvents(1, &ev), CL_SUCCESS);
            clReleaseEvent(ev);
            assert_eq!(clFinish(q), CL_SUCCESS);
            clReleaseCommandQueue(q);
        }
    }

    let out = std::process::Command::new("clinfo")
        .arg("-l")
        .env("OCL_ICD_VENDORS", &dir)
        .output()
        .expect("clinfo is installed by make test");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("FerroCL") && text.contains("Portable Computing Language"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clinfo_reports_no_errors_for_ferrocl() {
    let out = std::process::Command::new("clinfo")
        .env("OCL_ICD_VENDORS", ferrocl_library())
        .output()
        .expect("clinfo is installed by make test");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("Platform Name") && text.contains("FerroCL"));
    // clinfo prints "<...: error -N>" for every query a driver fails.
    let errors: Vec<&str> = text.lines().filter(|l| l.contains("error -")).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}
