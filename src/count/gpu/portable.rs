//! The portable GPU, through `wgpu`: any GPU with Vulkan, Metal or
//! DirectX 12 (lavapipe, Mesa's Vulkan on the CPU, included). The kernel is
//! `kernel.wgsl`, the walk of `kernel.cu`, compiled by the driver when a
//! count opens the device; it counts arrays of tasks (see [`Tasks`]) as
//! the CUDA device does, one count per task, two 32-bit words each (WGSL
//! has no 64-bit integer everywhere).
//!
//! wgpu reports a failed call through error scopes rather than results:
//! every launch runs inside one, and a device lost or an error nothing
//! caught is kept and reported by the next launch, so every failure is a
//! [`crate::Error::Gpu`] of one line rather than a panic.

use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

use wgpu::util::DeviceExt;

use super::cut::{Tasks, max_depth};
use crate::Error;
use crate::count::options::{GpuBackend, GpuOptions};
use crate::kernel::full_mask;

/// The kernel's WGSL source, before its constants are filled in.
const SOURCE: &str = include_str!("kernel.wgsl");

/// Invocations per workgroup, unless `QUEENS_GPU_BLOCK` says otherwise or
/// the adapter's workgroup memory holds fewer stacks.
const WORKGROUP: u32 = 64;

/// The steps of one round of the kernel's walk on a software adapter:
/// llvmpipe leaves a loop after 65535 iterations (see `kernel.wgsl`).
const SOFTWARE_STEPS: u32 = 1 << 14;

/// The workgroups of a launch on a software adapter: enough for every
/// core's lanes, few enough that the walks saved between rounds stay small.
const SOFTWARE_GROUPS: u32 = 64;

/// The most tasks one launch takes, below the adapter's buffer limits (1
/// GiB of tasks): each launch ends with its slowest task, so the fewer
/// the better (n = 21 on an H100 in launches of 4 million tasks: 56 s).
const MOST_TASKS: usize = 1 << 26;

/// The APIs `backend` allows, in the order they are tried: the automatic
/// choice tries Vulkan, then Metal, then DirectX 12, so that a Windows GPU
/// with both drivers counts through Vulkan, whose compiler ships with the
/// driver (DirectX 12 compiles through `d3dcompiler_47.dll`).
fn backends(backend: GpuBackend) -> &'static [wgpu::Backends] {
    match backend {
        GpuBackend::Vulkan => &[wgpu::Backends::VULKAN],
        GpuBackend::Metal => &[wgpu::Backends::METAL],
        GpuBackend::Dx12 => &[wgpu::Backends::DX12],
        GpuBackend::Auto | GpuBackend::Cuda | GpuBackend::Portable => &[
            wgpu::Backends::VULKAN,
            wgpu::Backends::METAL,
            wgpu::Backends::DX12,
        ],
    }
}

/// The adapter's name and API, as `--version` and the count say it:
/// `llvmpipe (LLVM 15.0.6, 256 bits) through Vulkan`.
fn describe(info: &wgpu::AdapterInfo) -> String {
    let api = match info.backend {
        wgpu::Backend::Vulkan => "Vulkan",
        wgpu::Backend::Metal => "Metal",
        wgpu::Backend::Dx12 => "DirectX 12",
        wgpu::Backend::Gl => "OpenGL",
        wgpu::Backend::BrowserWebGpu => "WebGPU",
        wgpu::Backend::Noop => "no API",
    };
    let software = if info.device_type == wgpu::DeviceType::Cpu {
        ", a GPU API run on the CPU"
    } else {
        ""
    };
    format!("{} through {api}{software}", info.name)
}

/// The adapter `backend` picks: the first API of [`backends`] with an
/// adapter, and of its adapters a high-performance one (a discrete GPU
/// before an integrated one, a software one last).
fn adapter(backend: GpuBackend) -> Result<wgpu::Adapter, Error> {
    let mut why = None;
    for &apis in backends(backend) {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = apis;
        desc.flags = wgpu::InstanceFlags::empty().with_env();
        let instance = wgpu::Instance::new(desc);
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..wgpu::RequestAdapterOptions::default()
        };
        match pollster::block_on(instance.request_adapter(&options)) {
            Ok(adapter) => return Ok(adapter),
            Err(e) => why = why.or(Some(e)),
        }
    }
    let (apis, needs) = match backend {
        GpuBackend::Metal => ("Metal", "macOS has it"),
        GpuBackend::Dx12 => ("DirectX 12", "Windows 10 and newer have it"),
        GpuBackend::Vulkan => (
            "Vulkan",
            "it needs a Vulkan driver, such as Mesa's, and libvulkan.so.1 or vulkan-1.dll",
        ),
        _ => (
            "Vulkan, Metal or DirectX 12",
            "on Linux: a Vulkan driver, such as Mesa's, and libvulkan.so.1",
        ),
    };
    let why = why
        .map(|e| format!(": {}", one_line(&e)))
        .unwrap_or_default();
    Err(Error::gpu(format!(
        "no GPU answered through {apis} ({needs}){why}"
    )))
}

/// What a pipeline is compiled for: the frames a stack holds, whether
/// tasks carry a table, the invocations of a workgroup.
type Shape = (u32, bool, u32);

/// One GPU through wgpu, and the pipelines compiled for it so far.
pub(crate) struct Device {
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: wgpu::Limits,
    /// The steps of one round of the walk: [`SOFTWARE_STEPS`] on a
    /// software adapter, else all.
    steps: u32,
    /// The invocations a workgroup asks for, before the adapter's memory
    /// has its say.
    workgroup: u32,
    pipelines: Mutex<HashMap<Shape, wgpu::ComputePipeline>>,
    /// The first error no scope caught (a device lost, say): reported by
    /// the launch that finds it.
    lost: Arc<Mutex<Option<String>>>,
}

impl Device {
    /// The name and API of the adapter `backend` picks, if one answers.
    ///
    /// # Errors
    /// A one-line reason: no adapter.
    pub fn find(backend: GpuBackend) -> Result<String, Error> {
        Ok(describe(&adapter(backend)?.get_info()))
    }

    /// The adapter `options.backend` picks, opened with every limit it
    /// offers (the largest buffers and workgroup memory).
    ///
    /// # Errors
    /// A one-line reason: no adapter, or it would not open.
    pub fn open(options: &GpuOptions) -> Result<Self, Error> {
        let workgroup = super::block_size(options, WORKGROUP)?;
        let adapter = adapter(options.backend)?;
        let limits = adapter.limits();
        let steps = if adapter.get_info().device_type == wgpu::DeviceType::Cpu {
            SOFTWARE_STEPS
        } else {
            u32::MAX
        };
        let desc = wgpu::DeviceDescriptor {
            label: Some("queens"),
            required_limits: limits.clone(),
            ..wgpu::DeviceDescriptor::default()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&desc))
            .map_err(|e| Error::gpu(format!("the GPU would not open: {}", one_line(&e))))?;
        let lost = Arc::new(Mutex::new(None));
        let keep = Arc::clone(&lost);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            keep.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert_with(|| one_line(&error));
        }));
        let keep = Arc::clone(&lost);
        device.set_device_lost_callback(move |_, message| {
            keep.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(format!("the GPU was lost: {}", one_line(&message)));
        });
        Ok(Self {
            device,
            queue,
            limits,
            steps,
            workgroup,
            pipelines: Mutex::new(HashMap::new()),
            lost,
        })
    }

    /// The invocations of a workgroup whose stacks hold `frames` frames:
    /// the asked number, halved until the stacks fit the adapter's
    /// workgroup memory and invocation limit.
    fn workgroup_for(&self, frames: u32) -> Result<u32, Error> {
        let memory = self.limits.max_compute_workgroup_storage_size;
        let most = self
            .limits
            .max_compute_invocations_per_workgroup
            .min(self.limits.max_compute_workgroup_size_x);
        let mut size = self.workgroup;
        while size > 1 && (size > most || 16 * frames * size > memory) {
            size /= 2;
        }
        if 16 * frames * size > memory {
            return Err(Error::gpu(format!(
                "the GPU's workgroup memory ({memory} bytes) cannot hold one stack of {frames} \
                 frames"
            )));
        }
        Ok(size)
    }

    /// The pipeline for `shape`, compiled the first time it is asked for.
    fn pipeline(&self, (frames, restricted, size): Shape) -> Result<wgpu::ComputePipeline, Error> {
        let mut pipelines = self
            .pipelines
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(pipeline) = pipelines.get(&(frames, restricted, size)) {
            return Ok(pipeline.clone());
        }
        let table = if restricted {
            "tasks[WIDTH * task + 3u] * params.n"
        } else {
            "0u"
        };
        let (step, steps) = if self.steps == u32::MAX {
            (0, 1)
        } else {
            (1, self.steps)
        };
        let source = format!(
            "const WORKGROUP: u32 = {size}u;\nconst FRAMES: u32 = {frames}u;\n\
             const WIDTH: u32 = {}u;\nconst STEP: u32 = {step}u;\nconst STEPS: u32 = {steps}u;\n\
             fn table_of(task: u32) -> u32 {{ return {table}; }}\n{SOURCE}",
            if restricted { 4 } else { 3 }
        );
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some("queens count_tasks"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        };
        let module = if self.steps == u32::MAX {
            // On a GPU the kernel runs without wgpu's bounds checks and
            // loop counters (n = 21 on an H100: 56 s with them, see
            // results/).
            // SAFETY: every index the kernel computes is in bounds when
            // STEP is 0 (a GPU's): a task's words (`task < task_count`,
            // the words of `task_count` tasks uploaded), its table
            // (`Tasks::build` writes indices of the batch's tables, and a
            // row's index counts at most n - 1 queens), a stack frame
            // (`top <= FRAMES`: a frame is pushed only above rows with
            // fewer than n - 2 queens, and a task fixes `depth` rows, so
            // at most n - 1 - depth frames), a count (`task <
            // task_count`); `state` is never read or written (round 0
            // only, and `step` stays 0). Its one loop ends when the tasks
            // run out: each step takes a column from a frame, and a walk
            // is finite.
            #[allow(unsafe_code)]
            unsafe {
                self.device
                    .create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked())
            }
        } else {
            self.device.create_shader_module(desc)
        };
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("queens count_tasks"),
                layout: None,
                module: &module,
                entry_point: Some("count_tasks"),
                compilation_options: wgpu::PipelineCompilationOptions {
                    // Every frame is written before it is read.
                    zero_initialize_workgroup_memory: false,
                    ..wgpu::PipelineCompilationOptions::default()
                },
                cache: None,
            });
        // A driver's compiler failing is an internal error, wgpu's
        // checks failing a validation error: either is the cause.
        let validation = pollster::block_on(scope.pop());
        if let Some(e) = pollster::block_on(internal.pop()).or(validation) {
            return Err(Error::gpu(format!(
                "compiling the GPU kernel: {}",
                one_line(&e)
            )));
        }
        pipelines.insert((frames, restricted, size), pipeline.clone());
        Ok(pipeline)
    }

    /// The error no scope caught since the device opened, if any.
    fn check_lost(&self) -> Result<(), Error> {
        match self
            .lost
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            Some(why) => Err(Error::gpu(format!("the GPU failed: {why}"))),
            None => Ok(()),
        }
    }

    /// Counts every task of `tasks` of an `n`-board: one count per task.
    ///
    /// # Errors
    /// A one-line reason when the tasks are cut deeper than `n - 2` rows,
    /// the adapter's workgroup memory cannot hold a stack, or the GPU
    /// fails (out of memory, a lost device).
    pub fn count(&self, n: u32, tasks: &Tasks) -> Result<Vec<u64>, Error> {
        let len = tasks.len();
        if len == 0 {
            return Ok(Vec::new());
        }
        let depth = tasks.depth;
        if !(super::MIN_GPU_N..=crate::kernel::MAX_N).contains(&n) || depth > max_depth(n) {
            return Err(Error::gpu(format!(
                "cannot cut an {n}-board {depth} rows deep for the GPU (at most n - 2)"
            )));
        }
        self.check_lost()?;
        let frames = n - 1 - depth;
        let size = self.workgroup_for(frames)?;
        let pipeline = self.pipeline((frames, tasks.restricted, size))?;
        let width = tasks.width();
        // The mirror plan's tasks read one table that allows every column.
        let every;
        let tables: &[u32] = if tasks.restricted {
            &tasks.tables
        } else {
            every = vec![full_mask(n); n as usize];
            &every
        };
        let binding = self.limits.max_storage_buffer_binding_size;
        let buffer = self.limits.max_buffer_size;
        let fits = |bytes: u64| bytes <= binding && bytes <= buffer;
        if !fits(4 * tables.len() as u64) {
            return Err(Error::gpu(format!(
                "a batch's tables ({} bytes) are larger than the GPU's largest buffer: set \
                 QUEENS_GPU_BATCHES higher",
                4 * tables.len()
            )));
        }
        let by_binding = binding.min(buffer) / (4 * width as u64).max(8);
        let chunk = MOST_TASKS
            .min(usize::try_from(by_binding).unwrap_or(usize::MAX))
            .max(1);
        let tables = self.storage("queens tables", bytes_of(tables), false);
        let mut counts = Vec::with_capacity(len);
        for first in (0..len).step_by(chunk) {
            let end = (first + chunk).min(len);
            let words = &tasks.words[first * width..end * width];
            self.launch(
                &pipeline,
                size,
                n,
                frames,
                words,
                &tables,
                end - first,
                &mut counts,
            )?;
        }
        Ok(counts)
    }

    /// A storage buffer holding `bytes`; `copied`: one that can be read
    /// back.
    fn storage(&self, label: &str, bytes: &[u8], copied: bool) -> wgpu::Buffer {
        let usage = if copied {
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST
        } else {
            wgpu::BufferUsages::STORAGE
        };
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage,
            })
    }

    /// One launch: counts the `len` tasks of `words` and appends their
    /// counts to `out`. On a software adapter, in rounds (see
    /// `kernel.wgsl`) until no invocation paused.
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        size: u32,
        n: u32,
        frames: u32,
        words: &[u32],
        tables: &wgpu::Buffer,
        len: usize,
        out: &mut Vec<u64>,
    ) -> Result<(), Error> {
        let task_count =
            u32::try_from(len).map_err(|_| Error::gpu("too many tasks in one launch"))?;
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let device = &self.device;
        let software = self.steps != u32::MAX;
        let most_groups = if software {
            SOFTWARE_GROUPS
        } else {
            self.limits.max_compute_workgroups_per_dimension
        };
        let groups = task_count.div_ceil(size).clamp(1, most_groups);
        let tasks = self.storage("queens tasks", bytes_of(words), false);
        let count_bytes = 8 * len as u64;
        let counts = self.buffer("queens counts", count_bytes, wgpu::BufferUsages::COPY_SRC);
        let read = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("queens counts read back"),
            size: count_bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let next = self.storage("queens next task", bytes_of(&[0]), false);
        // A walk saved between rounds: five words and four a frame, for
        // every invocation; a GPU never saves one.
        let saved_words = if software {
            u64::from(groups * size) * u64::from(5 + 4 * frames)
        } else {
            4
        };
        let state = self.buffer("queens walks", 4 * saved_words, wgpu::BufferUsages::empty());
        let paused = self.storage("queens paused", bytes_of(&[0]), true);
        let layout = pipeline.get_bind_group_layout(0);
        let failed =
            |e: &dyn std::fmt::Display| Error::gpu(format!("the GPU failed: {}", one_line(e)));
        for round in 0.. {
            let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("queens params"),
                contents: bytes_of(&[task_count, n, n - 2, round]),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let entries = [&tasks, tables, &counts, &next, &params, &state, &paused]
                .into_iter()
                .enumerate()
                .map(|(i, buffer)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: buffer.as_entire_binding(),
                })
                .collect::<Vec<_>>();
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("queens launch"),
                layout: &layout,
                entries: &entries,
            });
            self.queue.write_buffer(&paused, 0, bytes_of(&[0]));
            let mut encoder =
                device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.dispatch_workgroups(groups, 1, 1);
            }
            self.queue.submit([encoder.finish()]);
            if !software || self.read(&paused, 4)?.iter().all(|&b| b == 0) {
                break;
            }
        }
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        encoder.copy_buffer_to_buffer(&counts, 0, &read, 0, count_bytes);
        self.queue.submit([encoder.finish()]);
        let view = self.map(&read);
        if let Some(e) = pollster::block_on(validation.pop()) {
            return Err(failed(&e));
        }
        if let Some(e) = pollster::block_on(memory.pop()) {
            return Err(failed(&e));
        }
        if let Some(e) = pollster::block_on(internal.pop()) {
            return Err(failed(&e));
        }
        self.check_lost()?;
        let view = view?;
        out.extend(view.chunks_exact(8).map(|pair| {
            let word = |i: usize| u64::from(u32::from_le_bytes(pair[i..i + 4].try_into().unwrap()));
            word(0) | word(4) << 32
        }));
        Ok(())
    }

    /// A storage buffer of `bytes` bytes, zeroed, that `extra` can also be
    /// used as.
    fn buffer(&self, label: &str, bytes: u64, extra: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | extra,
            mapped_at_creation: false,
        })
    }

    /// `buffer` (made with `COPY_SRC`), waited for and mapped: its first
    /// `bytes` bytes.
    fn read(&self, buffer: &wgpu::Buffer, bytes: u64) -> Result<Vec<u8>, Error> {
        let read = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("queens read back"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        encoder.copy_buffer_to_buffer(buffer, 0, &read, 0, bytes);
        self.queue.submit([encoder.finish()]);
        let view = self.map(&read)?;
        Ok(view.to_vec())
    }

    /// Waits for the GPU and maps `read` (a `MAP_READ` buffer the last
    /// submission copied into).
    fn map(&self, read: &wgpu::Buffer) -> Result<wgpu::BufferView, Error> {
        let failed =
            |e: &dyn std::fmt::Display| Error::gpu(format!("the GPU failed: {}", one_line(e)));
        let (sender, receiver) = mpsc::channel();
        read.slice(..)
            .map_async(wgpu::MapMode::Read, move |mapped| drop(sender.send(mapped)));
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| failed(&e))?;
        self.check_lost()?;
        match receiver.try_recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(failed(&e)),
            Err(e) => return Err(failed(&e)),
        }
        read.slice(..).get_mapped_range().map_err(|e| failed(&e))
    }
}

/// wgpu's message on one line: its reports span many, with a drawing of
/// the shader's source where it failed to compile.
fn one_line(message: &dyn std::fmt::Display) -> String {
    let text = message.to_string();
    let mut line = String::new();
    for part in text.lines().map(str::trim) {
        let drawing = part.starts_with(['┌', '│', '^', '└', '=']);
        if part.is_empty() || drawing || line.contains(part) {
            continue;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(part);
    }
    line
}

/// `words` as the bytes a buffer holds (in the machine's order, which is
/// the GPU's: little-endian on every platform wgpu runs on).
fn bytes_of(words: &[u32]) -> &[u8] {
    bytemuck::cast_slice(words)
}
