#pragma once

namespace torchvulkan {
// Installs the PrivateUse1 hooks (availability, generators, pinned memory).
void register_hooks();
}
