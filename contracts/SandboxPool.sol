// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

import "./IERC20Minimal.sol";

/// @notice Ray (1e27) fixed-point helpers with Aave's half-up rounding.
library SandboxRayMath {
    uint256 internal constant RAY = 1e27;
    uint256 internal constant HALF_RAY = 0.5e27;

    function rayMul(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * b + HALF_RAY) / RAY;
    }

    function rayDiv(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * RAY + b / 2) / b;
    }
}

/// @notice What an aToken asks its pool.
interface ISandboxPoolIncome {
    function getReserveNormalizedIncome(address asset) external view returns (uint256);
}

/// @title SandboxAToken
/// @notice Interest-bearing receipt of SandboxPool: stores `scaled = amount / index` and reports
///         `balanceOf = scaled × normalizedIncome`, so balances grow with block time.
///         Minted and burned by the pool only; not transferable (sandbox simplification).
contract SandboxAToken {
    using SandboxRayMath for uint256;

    string public name;
    string public symbol;
    uint8 public immutable decimals;
    address public immutable POOL;
    address public immutable UNDERLYING_ASSET_ADDRESS;

    mapping(address => uint256) private _scaledBalances;
    uint256 private _scaledTotalSupply;

    event Transfer(address indexed from, address indexed to, uint256 value);

    error OnlyPool();
    error InvalidAmount();

    constructor(address pool, address asset, string memory name_, string memory symbol_, uint8 decimals_) {
        POOL = pool;
        UNDERLYING_ASSET_ADDRESS = asset;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    modifier onlyPool() {
        if (msg.sender != POOL) revert OnlyPool();
        _;
    }

    /// @notice Credit `amount` (underlying units) to `onBehalfOf` at liquidity index `index`.
    function mint(address onBehalfOf, uint256 amount, uint256 index) external onlyPool {
        uint256 scaled = amount.rayDiv(index);
        if (scaled == 0) revert InvalidAmount();
        _scaledBalances[onBehalfOf] += scaled;
        _scaledTotalSupply += scaled;
        emit Transfer(address(0), onBehalfOf, amount);
    }

    /// @notice Debit `amount` from `from` at `index`; `all` burns the whole scaled balance (no dust).
    function burn(address from, uint256 amount, uint256 index, bool all) external onlyPool {
        uint256 balance = _scaledBalances[from];
        uint256 scaled = all ? balance : amount.rayDiv(index);
        if (scaled > balance) scaled = balance;
        _scaledBalances[from] = balance - scaled;
        _scaledTotalSupply -= scaled;
        emit Transfer(from, address(0), amount);
    }

    function balanceOf(address user) external view returns (uint256) {
        return _scaledBalances[user].rayMul(_income());
    }

    function totalSupply() external view returns (uint256) {
        return _scaledTotalSupply.rayMul(_income());
    }

    function scaledBalanceOf(address user) external view returns (uint256) {
        return _scaledBalances[user];
    }

    function scaledTotalSupply() external view returns (uint256) {
        return _scaledTotalSupply;
    }

    function _income() private view returns (uint256) {
        return ISandboxPoolIncome(POOL).getReserveNormalizedIncome(UNDERLYING_ASSET_ADDRESS);
    }
}

/// @title SandboxPool
/// @notice Aave-V3-like lending pool (supply side only). Each reserve has an owner-set yearly
///         liquidity rate (APR, ray) and a liquidity index that grows linearly between updates:
///         normalizedIncome = index × (1 + rate × Δt / 365 days). Interest is paid out of the
///         pool's own token balance, so the deployer seeds each reserve with liquidity.
contract SandboxPool is ISandboxPoolIncome {
    using SandboxRayMath for uint256;

    uint256 internal constant SECONDS_PER_YEAR = 365 days;

    /// @dev Aave's ReserveConfigurationMap (always 0 here).
    struct ReserveConfigurationMap {
        uint256 data;
    }

    /// @dev Aave V3 `getReserveData` layout; decode positionally.
    struct ReserveData {
        ReserveConfigurationMap configuration;
        uint128 liquidityIndex;
        uint128 currentLiquidityRate;
        uint128 variableBorrowIndex;
        uint128 currentVariableBorrowRate;
        uint128 currentStableBorrowRate;
        uint40 lastUpdateTimestamp;
        uint16 id;
        address aTokenAddress;
        address stableDebtTokenAddress;
        address variableDebtTokenAddress;
        address interestRateStrategyAddress;
        uint128 accruedToTreasury;
        uint128 unbacked;
        uint128 isolationModeTotalDebt;
    }

    struct Reserve {
        uint128 liquidityIndex;
        uint128 liquidityRate;
        uint40 lastUpdateTimestamp;
        uint16 id;
        address aToken;
    }

    address public owner;
    mapping(address => Reserve) private _reserves;
    address[] private _reservesList;

    event ReserveInitialized(address indexed asset, address indexed aToken);
    event LiquidityRateUpdated(address indexed asset, uint256 liquidityRate);
    event Supply(
        address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode
    );
    event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error ZeroAddress();
    error ReserveAlreadyInitialized();
    error ReserveNotInitialized();
    error InvalidAmount();
    error NotEnoughAvailableUserBalance();
    error TransferFailed();

    constructor(address owner_) {
        if (owner_ == address(0)) revert ZeroAddress();
        owner = owner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    // ---------------------------------------------------------------- admin

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice List `asset` and deploy its aToken (same decimals as the asset).
    function initReserve(address asset, string calldata aTokenName, string calldata aTokenSymbol)
        external
        onlyOwner
        returns (address aToken)
    {
        if (_reserves[asset].aToken != address(0)) revert ReserveAlreadyInitialized();
        uint8 decimals = IERC20Minimal(asset).decimals();
        aToken = address(new SandboxAToken(address(this), asset, aTokenName, aTokenSymbol, decimals));
        _reserves[asset] = Reserve({
            liquidityIndex: uint128(SandboxRayMath.RAY),
            liquidityRate: 0,
            lastUpdateTimestamp: uint40(block.timestamp),
            id: uint16(_reservesList.length),
            aToken: aToken
        });
        _reservesList.push(asset);
        emit ReserveInitialized(asset, aToken);
    }

    /// @notice Set the yearly liquidity rate (APR, ray) of `asset`; interest so far is accrued first.
    function setLiquidityRate(address asset, uint256 rateRay) external onlyOwner {
        Reserve storage reserve = _reserve(asset);
        _updateState(reserve);
        reserve.liquidityRate = uint128(rateRay);
        emit LiquidityRateUpdated(asset, rateRay);
    }

    // ---------------------------------------------------------------- user

    function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode) external {
        if (amount == 0) revert InvalidAmount();
        Reserve storage reserve = _reserve(asset);
        _updateState(reserve);
        if (!IERC20Minimal(asset).transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        SandboxAToken(reserve.aToken).mint(onBehalfOf, amount, reserve.liquidityIndex);
        emit Supply(asset, msg.sender, onBehalfOf, amount, referralCode);
    }

    /// @notice Withdraw `amount` (type(uint256).max = everything) to `to`; returns the amount withdrawn.
    function withdraw(address asset, uint256 amount, address to) external returns (uint256) {
        if (amount == 0) revert InvalidAmount();
        Reserve storage reserve = _reserve(asset);
        _updateState(reserve);
        SandboxAToken aToken = SandboxAToken(reserve.aToken);
        uint256 balance = aToken.balanceOf(msg.sender);
        uint256 toWithdraw = amount == type(uint256).max ? balance : amount;
        if (toWithdraw == 0 || toWithdraw > balance) revert NotEnoughAvailableUserBalance();
        aToken.burn(msg.sender, toWithdraw, reserve.liquidityIndex, toWithdraw == balance);
        if (!IERC20Minimal(asset).transfer(to, toWithdraw)) revert TransferFailed();
        emit Withdraw(asset, msg.sender, to, toWithdraw);
        return toWithdraw;
    }

    // ---------------------------------------------------------------- views

    /// @notice Liquidity index including linear interest up to the current block.
    function getReserveNormalizedIncome(address asset) public view returns (uint256) {
        Reserve storage reserve = _reserve(asset);
        return _normalizedIncome(reserve);
    }

    function getReserveData(address asset) external view returns (ReserveData memory data) {
        Reserve storage reserve = _reserves[asset];
        data.liquidityIndex = reserve.liquidityIndex;
        data.currentLiquidityRate = reserve.liquidityRate;
        data.variableBorrowIndex = uint128(SandboxRayMath.RAY);
        data.lastUpdateTimestamp = reserve.lastUpdateTimestamp;
        data.id = reserve.id;
        data.aTokenAddress = reserve.aToken;
    }

    function getReservesList() external view returns (address[] memory) {
        return _reservesList;
    }

    // ---------------------------------------------------------------- internals

    function _reserve(address asset) private view returns (Reserve storage reserve) {
        reserve = _reserves[asset];
        if (reserve.aToken == address(0)) revert ReserveNotInitialized();
    }

    function _normalizedIncome(Reserve storage reserve) private view returns (uint256) {
        uint256 elapsed = block.timestamp - reserve.lastUpdateTimestamp;
        if (elapsed == 0) return reserve.liquidityIndex;
        uint256 linear = SandboxRayMath.RAY + (uint256(reserve.liquidityRate) * elapsed) / SECONDS_PER_YEAR;
        return linear.rayMul(reserve.liquidityIndex);
    }

    function _updateState(Reserve storage reserve) private {
        if (reserve.lastUpdateTimestamp == block.timestamp) return;
        reserve.liquidityIndex = uint128(_normalizedIncome(reserve));
        reserve.lastUpdateTimestamp = uint40(block.timestamp);
    }
}
