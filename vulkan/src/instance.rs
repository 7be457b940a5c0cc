//! The Vulkan device the backend draws with: a headless instance (no surface; presents are read
//! back, R-GPU-3), the Khronos validation layer with synchronization validation when asked, one
//! graphics queue, and gpu-allocator for memory.
//!
//! **In:** [`VulkanOptions`](crate::VulkanOptions). **Out:** [`Gpu`], which owns the instance,
//! the logical device, the queue, the allocator and the validation messages the debug messenger
//! counted; or a [`BackendError`] saying why none could be made (no loader, no device, a call
//! that failed), never a panic.
//!
//! **Invariant.** Vulkan 1.3 is required, with `dynamicRendering` and `synchronization2` enabled
//! (lavapipe 22.3 reports 1.3.230 with both). Everything made from the device is destroyed
//! before it ([`Gpu`]'s `Drop` runs last: the backend's other parts destroy their objects in
//! their own `destroy` called by the backend's `Drop` first). The messenger's user data (the
//! message list) is boxed, so its address stays valid until the messenger is destroyed.

use std::ffi::{c_void, CStr};
use std::fmt;
use std::mem::ManuallyDrop;
use std::sync::{Arc, Mutex};

use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};

/// Why the backend could not be made or could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    /// `libvulkan.so.1` (the Vulkan loader) could not be loaded.
    #[error("no Vulkan loader: {0} (install libvulkan1 and a driver, e.g. mesa-vulkan-drivers)")]
    NoLoader(String),
    /// The loader works but offers no device the backend can use.
    #[error("no usable Vulkan device: {0}")]
    NoDevice(String),
    /// The validation layer was asked for and is not installed.
    #[error("the Khronos validation layer is not installed (vulkan-validationlayers)")]
    NoValidationLayer,
    /// A Vulkan call failed.
    #[error("{call} failed: {result}")]
    Vulkan {
        /// The call.
        call: &'static str,
        /// What it returned.
        result: vk::Result,
    },
    /// The memory allocator failed.
    #[error("memory allocation failed: {0}")]
    Allocation(String),
}

impl BackendError {
    /// The error as the engine reports it (a model violation): `call` is the command at work.
    pub fn to_engine(&self, call: &'static str) -> recorder::Error {
        recorder::Error::GpuBackend {
            call,
            object: "the Vulkan device".to_string(),
            problem: format!("failed: {self} (R-GPU-3)"),
        }
    }
}

/// A Vulkan call's failure as a [`BackendError`].
pub(crate) fn vk_failed(call: &'static str) -> impl Fn(vk::Result) -> BackendError {
    move |result| BackendError::Vulkan { call, result }
}

/// The messages the validation layer sent with severity warning or error.
pub(crate) type Messages = Arc<Mutex<Vec<String>>>;

/// The instance, device, queue and allocator (see the module essay).
pub(crate) struct Gpu {
    pub(crate) _entry: ash::Entry,
    pub(crate) instance: ash::Instance,
    debug_utils: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    /// Boxed for a stable address: the messenger's user data points at it.
    messages: Box<Messages>,
    pub(crate) properties: vk::PhysicalDeviceProperties,
    pub(crate) device: ash::Device,
    pub(crate) queue: vk::Queue,
    pub(crate) queue_family: u32,
    /// The queue family's valid timestamp bits (0: no timestamps).
    pub(crate) timestamp_bits: u32,
    /// What the device enabled for queries and predication (`query_pools.rs`).
    pub(crate) query_features: QueryFeatures,
    /// `VK_EXT_conditional_rendering`'s commands, where the device has it (enabled then).
    pub(crate) conditional_rendering: Option<ash::ext::conditional_rendering::Device>,
    /// `VK_KHR_push_descriptor`'s commands, where the device has it (enabled then).
    pub(crate) push_descriptor: Option<ash::khr::push_descriptor::Device>,
    /// Dropped by hand before the device is destroyed.
    pub(crate) allocator: ManuallyDrop<Allocator>,
    /// The optional features enabled (those the device has).
    pub(crate) features: Features,
}

/// The optional features the backend enables where the device has them; a draw that needs
/// one the device lacks is refused, naming it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Features {
    /// `vertexPipelineStoresAndAtomics`: UAVs in a vertex shader.
    pub(crate) vertex_stores: bool,
    /// `fragmentStoresAndAtomics`: UAVs in a pixel shader.
    pub(crate) fragment_stores: bool,
    /// `multiViewport`: several viewports and scissors.
    pub(crate) multi_viewport: bool,
    /// The device's `maxViewports` (1 without `multiViewport`).
    pub(crate) max_viewports: u32,
    /// `fillModeNonSolid`: wireframe.
    pub(crate) wireframe: bool,
    /// `depthClamp`: D3D11's `DepthClipEnable = FALSE`.
    pub(crate) depth_clamp: bool,
    /// `VK_EXT_image_view_min_lod`'s `minLod`: a view's minimum LOD (R-ST-6).
    pub(crate) view_min_lod: bool,
    /// `VK_KHR_push_descriptor`'s `maxPushDescriptors` (0 without the extension): a draw's
    /// descriptors are pushed when its set has at most this many (`descriptors.rs`).
    pub(crate) push_descriptors: u32,
}

impl fmt::Debug for Gpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gpu")
            .field("device", &self.device_name())
            .field("queue_family", &self.queue_family)
            .finish_non_exhaustive()
    }
}

/// The query features the device has, each enabled where it does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct QueryFeatures {
    /// `occlusionQueryPrecise`: exact sample counts.
    pub(crate) precise: bool,
    /// `pipelineStatisticsQuery`.
    pub(crate) statistics: bool,
    /// `geometryShader` (its pipeline statistics need it).
    pub(crate) geometry: bool,
    /// `tessellationShader` (its pipeline statistics need it).
    pub(crate) tessellation: bool,
    /// `VK_EXT_conditional_rendering` with its `conditionalRendering` feature.
    pub(crate) conditional: bool,
}

/// Most descriptors pushed at once (a set larger than the device's `maxPushDescriptors`, or
/// than this, is allocated and written instead: `descriptors.rs`).
pub(crate) const MAX_PUSHED: usize = 32;

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// The debug messenger's callback: keeps every warning and error.
///
/// # Safety
/// Called by the validation layer with a valid callback data pointer (or null) and the user
/// data given at creation: a pointer to the [`Messages`] boxed in [`Gpu`], alive until the
/// messenger is destroyed.
unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    let keep = vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
        | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR;
    if !severity.intersects(keep) || user.is_null() || data.is_null() {
        return vk::FALSE;
    }
    // SAFETY: the layer hands a valid callback data for the duration of the call (checked non
    // null above); its message is a NUL-terminated string or null.
    let text = unsafe {
        let data = &*data;
        if data.p_message.is_null() {
            String::from("(no message)")
        } else {
            CStr::from_ptr(data.p_message)
                .to_string_lossy()
                .into_owned()
        }
    };
    // SAFETY: `user` is the `Messages` boxed in `Gpu` (see the function's contract), alive
    // while the messenger is.
    let messages = unsafe { &*(user as *const Messages) };
    if let Ok(mut list) = messages.lock() {
        list.push(format!("{severity:?}: {text}"));
    }
    vk::FALSE
}

impl Gpu {
    /// Makes the instance, picks a device (discrete first; `VULKAN_BACKEND_DEVICE` a substring
    /// of the name to choose), and makes the logical device, queue and allocator.
    pub(crate) fn new(validation: bool) -> Result<Self, BackendError> {
        // SAFETY: loading the system's Vulkan loader runs its initialisers; this is the
        // documented way to reach Vulkan and has no other precondition.
        let entry =
            unsafe { ash::Entry::load() }.map_err(|e| BackendError::NoLoader(e.to_string()))?;
        let messages: Box<Messages> = Box::default();
        let instance = Self::make_instance(&entry, validation, &messages)?;
        let debug_utils = if validation {
            let loader = ash::ext::debug_utils::Instance::new(&entry, &instance);
            let info = messenger_info(&messages);
            // SAFETY: `instance` has VK_EXT_debug_utils enabled (validation); `info` lives
            // across the call and its user data outlives the messenger (boxed in `Gpu`).
            match unsafe { loader.create_debug_utils_messenger(&info, None) } {
                Ok(messenger) => Some((loader, messenger)),
                Err(result) => {
                    // SAFETY: nothing was made from the instance yet.
                    unsafe { instance.destroy_instance(None) };
                    return Err(vk_failed("vkCreateDebugUtilsMessengerEXT")(result));
                }
            }
        } else {
            None
        };
        let mut partial = Partial {
            instance: Some(instance),
            debug_utils,
        };
        let (physical, properties, queue_family) = partial.pick_device()?;
        let (device, query_features, features) =
            partial.make_device(physical, queue_family, &properties)?;
        let timestamp_bits = partial.instance().map_or(0, |instance| {
            // SAFETY: `physical` belongs to the live instance.
            let families =
                unsafe { instance.get_physical_device_queue_family_properties(physical) };
            families
                .get(queue_family as usize)
                .map_or(0, |f| f.timestamp_valid_bits)
        });
        // SAFETY: the device was made with one queue of `queue_family`.
        let queue = unsafe { device.get_device_queue(queue_family, 0) };
        let (instance, debug_utils) = partial.take()?;
        let conditional_rendering = query_features
            .conditional
            .then(|| ash::ext::conditional_rendering::Device::new(&instance, &device));
        let push_descriptor = (features.push_descriptors > 0)
            .then(|| ash::khr::push_descriptor::Device::new(&instance, &device));
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.clone(),
            device: device.clone(),
            physical_device: physical,
            debug_settings: Default::default(),
            buffer_device_address: false,
            allocation_sizes: Default::default(),
        });
        let allocator = match allocator {
            Ok(allocator) => allocator,
            Err(error) => {
                // SAFETY: nothing was made from the device; the messenger and instance are
                // destroyed last, in that order.
                unsafe {
                    device.destroy_device(None);
                    if let Some((loader, messenger)) = &debug_utils {
                        loader.destroy_debug_utils_messenger(*messenger, None);
                    }
                    instance.destroy_instance(None);
                }
                return Err(BackendError::Allocation(error.to_string()));
            }
        };
        Ok(Self {
            _entry: entry,
            instance,
            debug_utils,
            messages,
            properties,
            device,
            queue,
            queue_family,
            timestamp_bits,
            query_features,
            conditional_rendering,
            push_descriptor,
            allocator: ManuallyDrop::new(allocator),
            features,
        })
    }

    fn make_instance(
        entry: &ash::Entry,
        validation: bool,
        messages: &Messages,
    ) -> Result<ash::Instance, BackendError> {
        if validation {
            // SAFETY: `entry` is a loaded loader; the query has no other precondition.
            let layers = unsafe { entry.enumerate_instance_layer_properties() }
                .map_err(vk_failed("vkEnumerateInstanceLayerProperties"))?;
            if !layers
                .iter()
                .any(|l| l.layer_name_as_c_str() == Ok(VALIDATION_LAYER))
            {
                return Err(BackendError::NoValidationLayer);
            }
        }
        let app = vk::ApplicationInfo::default()
            .application_name(c"engine")
            .engine_name(c"engine vulkan-backend")
            .api_version(vk::API_VERSION_1_3);
        let layers = [VALIDATION_LAYER.as_ptr()];
        let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
        let enables = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let mut features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&enables);
        let mut messenger = messenger_info(messages);
        let mut info = vk::InstanceCreateInfo::default().application_info(&app);
        if validation {
            info = info
                .enabled_layer_names(&layers)
                .enabled_extension_names(&extensions)
                .push_next(&mut features)
                .push_next(&mut messenger);
        }
        // SAFETY: `info` and everything it points to live across the call.
        unsafe { entry.create_instance(&info, None) }.map_err(|result| match result {
            vk::Result::ERROR_INCOMPATIBLE_DRIVER => {
                BackendError::NoDevice("no driver offers Vulkan 1.3".to_string())
            }
            other => vk_failed("vkCreateInstance")(other),
        })
    }

    /// The device's name.
    pub(crate) fn device_name(&self) -> String {
        self.properties
            .device_name_as_c_str()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The validation messages (warnings and errors) so far.
    pub(crate) fn messages(&self) -> Vec<String> {
        self.messages.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

fn messenger_info(messages: &Messages) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_message))
        .user_data(messages as *const Messages as *mut c_void)
}

/// An instance (and messenger) being set up: destroyed if a later step fails.
struct Partial {
    instance: Option<ash::Instance>,
    debug_utils: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
}

impl Partial {
    fn instance(&self) -> Result<&ash::Instance, BackendError> {
        self.instance
            .as_ref()
            .ok_or_else(|| BackendError::NoDevice("instance already taken".to_string()))
    }

    fn pick_device(
        &self,
    ) -> Result<(vk::PhysicalDevice, vk::PhysicalDeviceProperties, u32), BackendError> {
        let instance = self.instance()?;
        // SAFETY: `instance` is alive.
        let devices = unsafe { instance.enumerate_physical_devices() }
            .map_err(vk_failed("vkEnumeratePhysicalDevices"))?;
        let wanted = std::env::var("VULKAN_BACKEND_DEVICE").ok();
        let mut best: Option<(u32, vk::PhysicalDevice, vk::PhysicalDeviceProperties, u32)> = None;
        let mut seen = Vec::new();
        for physical in devices {
            let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
            let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut v13);
            // SAFETY: `physical` belongs to `instance`; the structures live across the calls.
            let (properties, families) = unsafe {
                instance.get_physical_device_features2(physical, &mut features);
                (
                    instance.get_physical_device_properties(physical),
                    instance.get_physical_device_queue_family_properties(physical),
                )
            };
            let name = properties
                .device_name_as_c_str()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            seen.push(name.clone());
            if wanted.as_ref().is_some_and(|w| !name.contains(w.as_str())) {
                continue;
            }
            let capable = properties.api_version >= vk::API_VERSION_1_3
                && v13.dynamic_rendering == vk::TRUE
                && v13.synchronization2 == vk::TRUE;
            let family = families
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS));
            let (true, Some(family)) = (capable, family) else {
                continue;
            };
            let rank = match properties.device_type {
                vk::PhysicalDeviceType::DISCRETE_GPU => 3,
                vk::PhysicalDeviceType::INTEGRATED_GPU => 2,
                _ => 1,
            };
            if best.as_ref().is_none_or(|b| b.0 < rank) {
                best = Some((rank, physical, properties, family as u32));
            }
        }
        best.map(|(_, p, props, family)| (p, props, family))
            .ok_or_else(|| {
                BackendError::NoDevice(format!(
                    "none of {seen:?} offers Vulkan 1.3 with dynamicRendering and synchronization2 and a graphics queue{}",
                    wanted.map(|w| format!(" and is named like VULKAN_BACKEND_DEVICE={w}")).unwrap_or_default()
                ))
            })
    }

    fn make_device(
        &self,
        physical: vk::PhysicalDevice,
        family: u32,
        properties: &vk::PhysicalDeviceProperties,
    ) -> Result<(ash::Device, QueryFeatures, Features), BackendError> {
        let instance = self.instance()?;
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        // maintenance4: a vertex output the pixel shader does not read is legal, as in D3D11.
        // Robust buffer access (and robustness2's, where the device has it): a vertex fetched
        // past its buffer's bound size reads zeros, as D3D11 defines, instead of whatever
        // memory follows (DXVK enables the same). Queries: precise occlusion, pipeline
        // statistics and conditional rendering where the device has them (`query_pools.rs`).
        // SAFETY: `physical` belongs to `instance`.
        let extensions =
            unsafe { instance.enumerate_device_extension_properties(physical) }.unwrap_or_default();
        let has = |name: &CStr| {
            extensions
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };
        let robustness2 = has(ash::ext::robustness2::NAME);
        let conditional = has(ash::ext::conditional_rendering::NAME);
        let min_lod = has(ash::ext::image_view_min_lod::NAME);
        let push_descriptors = if has(ash::khr::push_descriptor::NAME) {
            let mut push = vk::PhysicalDevicePushDescriptorPropertiesKHR::default();
            let mut properties2 = vk::PhysicalDeviceProperties2::default().push_next(&mut push);
            // SAFETY: `physical` belongs to `instance`; the structures live across the call.
            unsafe { instance.get_physical_device_properties2(physical, &mut properties2) };
            push.max_push_descriptors.min(MAX_PUSHED as u32)
        } else {
            0
        };
        let mut supported = vk::PhysicalDeviceVulkan13Features::default();
        let mut supported_robust = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
        let mut supported_conditional =
            vk::PhysicalDeviceConditionalRenderingFeaturesEXT::default();
        let mut supported_min_lod = vk::PhysicalDeviceImageViewMinLodFeaturesEXT::default();
        let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut supported);
        if min_lod {
            features = features.push_next(&mut supported_min_lod);
        }
        if robustness2 {
            features = features.push_next(&mut supported_robust);
        }
        if conditional {
            features = features.push_next(&mut supported_conditional);
        }
        // SAFETY: `physical` belongs to `instance`; the structures live across the call.
        unsafe { instance.get_physical_device_features2(physical, &mut features) };
        let base_supported = features.features;
        let robust_access = base_supported.robust_buffer_access == vk::TRUE;
        let robust_access2 = robustness2 && supported_robust.robust_buffer_access2 == vk::TRUE;
        let query_features = QueryFeatures {
            precise: base_supported.occlusion_query_precise == vk::TRUE,
            statistics: base_supported.pipeline_statistics_query == vk::TRUE,
            geometry: base_supported.geometry_shader == vk::TRUE,
            tessellation: base_supported.tessellation_shader == vk::TRUE,
            conditional: conditional && supported_conditional.conditional_rendering == vk::TRUE,
        };
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default()
            .dynamic_rendering(true)
            .synchronization2(true)
            .maintenance4(supported.maintenance4 == vk::TRUE);
        // UAVs in draws, several viewports, wireframe and depth clamp (SPEC R-GPU-3), where the
        // device has them: `Features` says which, and a draw needing a missing one is refused.
        let on = |f: vk::Bool32| f == vk::TRUE;
        let enabled = Features {
            vertex_stores: on(base_supported.vertex_pipeline_stores_and_atomics),
            fragment_stores: on(base_supported.fragment_stores_and_atomics),
            multi_viewport: on(base_supported.multi_viewport),
            max_viewports: if on(base_supported.multi_viewport) {
                properties.limits.max_viewports.clamp(1, 16)
            } else {
                1
            },
            wireframe: on(base_supported.fill_mode_non_solid),
            depth_clamp: on(base_supported.depth_clamp),
            view_min_lod: min_lod && on(supported_min_lod.min_lod),
            push_descriptors,
        };
        let base = vk::PhysicalDeviceFeatures::default()
            .robust_buffer_access(robust_access)
            .occlusion_query_precise(query_features.precise)
            .pipeline_statistics_query(query_features.statistics)
            .geometry_shader(query_features.geometry)
            .tessellation_shader(query_features.tessellation)
            .vertex_pipeline_stores_and_atomics(enabled.vertex_stores)
            .fragment_stores_and_atomics(enabled.fragment_stores)
            .multi_viewport(enabled.multi_viewport)
            .fill_mode_non_solid(enabled.wireframe)
            .depth_clamp(enabled.depth_clamp)
            .shader_storage_image_write_without_format(on(
                base_supported.shader_storage_image_write_without_format
            ));
        let mut robust = vk::PhysicalDeviceRobustness2FeaturesEXT::default()
            .robust_buffer_access2(robust_access && robust_access2);
        let mut conditional_feature = vk::PhysicalDeviceConditionalRenderingFeaturesEXT::default()
            .conditional_rendering(true);
        let mut min_lod_feature =
            vk::PhysicalDeviceImageViewMinLodFeaturesEXT::default().min_lod(true);
        let mut names = Vec::new();
        let mut info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&base)
            .push_next(&mut v13);
        if robust_access && robust_access2 {
            names.push(ash::ext::robustness2::NAME.as_ptr());
            info = info.push_next(&mut robust);
        }
        if push_descriptors > 0 {
            names.push(ash::khr::push_descriptor::NAME.as_ptr());
        }
        if query_features.conditional {
            names.push(ash::ext::conditional_rendering::NAME.as_ptr());
            info = info.push_next(&mut conditional_feature);
        }
        if enabled.view_min_lod {
            names.push(ash::ext::image_view_min_lod::NAME.as_ptr());
            info = info.push_next(&mut min_lod_feature);
        }
        info = info.enabled_extension_names(&names);
        // SAFETY: `physical` belongs to `instance` and has the features asked for (checked by
        // `pick_device`, the optional ones enabled only where reported); `info` and what it
        // points to live across the call.
        let device = unsafe { instance.create_device(physical, &info, None) }
            .map_err(vk_failed("vkCreateDevice"))?;
        Ok((device, query_features, enabled))
    }

    /// The instance and messenger, no longer destroyed by `Drop`.
    #[allow(clippy::type_complexity)]
    fn take(
        &mut self,
    ) -> Result<
        (
            ash::Instance,
            Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
        ),
        BackendError,
    > {
        let instance = self
            .instance
            .take()
            .ok_or_else(|| BackendError::NoDevice("instance already taken".to_string()))?;
        Ok((instance, self.debug_utils.take()))
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        // SAFETY: a step failed (or `take` emptied the fields): nothing else was made from the
        // instance; the messenger goes before the instance.
        unsafe {
            if let Some((loader, messenger)) = self.debug_utils.take() {
                loader.destroy_debug_utils_messenger(messenger, None);
            }
            if let Some(instance) = self.instance.take() {
                instance.destroy_instance(None);
            }
        }
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: the backend destroyed every object made from the device before dropping
        // `Gpu` (module invariant), after waiting for the device to be idle; the allocator
        // frees its memory blocks before the device goes; the messenger before the instance.
        unsafe {
            let _ = self.device.device_wait_idle();
            ManuallyDrop::drop(&mut self.allocator);
            self.device.destroy_device(None);
            if let Some((loader, messenger)) = self.debug_utils.take() {
                loader.destroy_debug_utils_messenger(messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}
