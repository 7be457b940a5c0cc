//! Prints what the Vulkan devices of this machine support that the backend relies on
//! (API version, dynamic rendering, synchronization2, robust buffer access, query features, conditional rendering), and whether the validation layer exists.

fn main() {
    // SAFETY: loading the system's Vulkan loader runs its initialisers; it is the documented
    // way to reach Vulkan, and nothing else in this process loads it concurrently.
    let entry = match unsafe { ash::Entry::load() } {
        Ok(entry) => entry,
        Err(error) => {
            println!("no Vulkan loader: {error}");
            return;
        }
    };
    // SAFETY: `entry` is a loaded loader; the query has no other precondition.
    let layers = unsafe { entry.enumerate_instance_layer_properties() }.unwrap_or_default();
    for layer in &layers {
        println!("layer {:?}", layer.layer_name_as_c_str());
    }
    let app = ash::vk::ApplicationInfo::default().api_version(ash::vk::API_VERSION_1_3);
    let info = ash::vk::InstanceCreateInfo::default().application_info(&app);
    // SAFETY: `info` and what it points to live across the call.
    let instance = match unsafe { entry.create_instance(&info, None) } {
        Ok(instance) => instance,
        Err(error) => {
            println!("no instance: {error}");
            return;
        }
    };
    // SAFETY: `instance` is alive; the physical devices it lists are valid while it is.
    let devices = unsafe { instance.enumerate_physical_devices() }.unwrap_or_default();
    for device in devices {
        let mut v13 = ash::vk::PhysicalDeviceVulkan13Features::default();
        let mut features = ash::vk::PhysicalDeviceFeatures2::default().push_next(&mut v13);
        // SAFETY: `device` belongs to `instance`; the structures live across the calls.
        let properties = unsafe {
            instance.get_physical_device_features2(device, &mut features);
            instance.get_physical_device_properties(device)
        };
        let robust_buffer_access = features.features.robust_buffer_access;
        let (precise, statistics) = (
            features.features.occlusion_query_precise,
            features.features.pipeline_statistics_query,
        );
        let version = properties.api_version;
        println!(
            "device {:?} type {:?} api {}.{}.{} dynamic_rendering {} synchronization2 {}",
            properties.device_name_as_c_str(),
            properties.device_type,
            ash::vk::api_version_major(version),
            ash::vk::api_version_minor(version),
            ash::vk::api_version_patch(version),
            v13.dynamic_rendering,
            v13.synchronization2
        );
        // SAFETY: `device` belongs to `instance`.
        let extensions =
            unsafe { instance.enumerate_device_extension_properties(device) }.unwrap_or_default();
        let robustness2 = extensions
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(ash::ext::robustness2::NAME));
        println!(
            "  robust_buffer_access {} VK_EXT_robustness2 {}",
            robust_buffer_access, robustness2
        );
        let conditional_rendering = extensions
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(ash::ext::conditional_rendering::NAME));
        println!(
            "  occlusion_query_precise {} pipeline_statistics_query {} VK_EXT_conditional_rendering {} timestamp_period {}",
            precise,
            statistics,
            conditional_rendering,
            properties.limits.timestamp_period
        );
    }
    // SAFETY: nothing made from `instance` outlives it.
    unsafe { instance.destroy_instance(None) };
}
